import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { readForm, redirectWith } from "~/lib/forms.server";
import { requireViewer } from "~/lib/session.server";

export const loader = () => redirect("/");

// The banner's button: ends the impersonation session, restores the admin's own, and goes back to
// the page of the user who was impersonated.
export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  const viewer = await requireViewer(request);
  const auth = await getAuth();
  try {
    const result = await auth.api.stopImpersonating({ headers: request.headers });
    return redirectWith(`/admin/users/${viewer.user.id}`, result.headers);
  } catch (error) {
    if (isAuthError(error)) return redirectWith("/");
    throw error;
  }
}
