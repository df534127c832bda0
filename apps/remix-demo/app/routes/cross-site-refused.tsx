import { CROSS_SITE_REFUSED } from "~/lib/cross-site";

export const handle = { title: "errorPage.crossSite.title" };

// Where server.js sends a form posted from another site: the app's 403 page (root ErrorBoundary).
export function loader(): never {
  throw new Response(CROSS_SITE_REFUSED, { status: 403, statusText: "Forbidden" });
}

// A page route (not a resource route), so that the loader's 403 renders the root ErrorBoundary.
export default function CrossSiteRefused() {
  return null;
}
