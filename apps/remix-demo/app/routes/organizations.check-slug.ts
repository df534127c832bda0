import type { LoaderFunctionArgs } from "@remix-run/node";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { requireViewer } from "~/lib/session.server";

// The live slug check of the create and settings forms (fetched as the user types, JS only).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireViewer(request);
  const slug = new URL(request.url).searchParams.get("slug") ?? "";
  // The core's own slug rule decides (letters, digits, - _ and .): a bad slug answers VALIDATION_ERROR.
  const auth = await getAuth();
  try {
    await auth.api.checkOrganizationSlug({ body: { slug }, headers: request.headers });
    return { slug, available: true, code: null };
  } catch (error) {
    if (!isAuthError(error)) throw error;
    return { slug, available: false, code: error.code };
  }
}
