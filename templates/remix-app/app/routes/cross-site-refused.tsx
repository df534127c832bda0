import { strings } from "~/strings";

// Where server.mjs sends a form posted from another site: a 403 the root ErrorBoundary shows as a
// sentence (Remix itself would answer an empty 500). No action or loader of the target ran.
export function loader(): never {
  throw new Response(strings.errorPage.crossSite, { status: 403, statusText: "Forbidden" });
}

export default function CrossSiteRefused() {
  return null;
}
