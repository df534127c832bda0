import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { assertSameOrigin } from "~/lib/forms.server";
import { requireViewer } from "~/lib/session.server";

/**
 * "Download my data" (GDPR articles 15 and 20): the core's export of everything it holds about the
 * caller, answered as a JSON file. A POST from the account page's own form (Origin checked, no
 * link or prefetch can start it), posted as a document so the browser saves the answer. The core
 * asks for a fresh session: a stale one is sent back to the account page with the reason and a
 * "sign in again" button (routes/account._index.tsx); so is any other refusal (docs/security.md,
 * "The user's own data").
 */
export const loader = () => redirect("/account");

export async function action({ request }: ActionFunctionArgs) {
  // The form has no fields: only its Origin is checked.
  assertSameOrigin(request);
  await requireViewer(request);
  const auth = await getAuth();
  try {
    const { data } = await auth.api.exportUserData({ headers: request.headers });
    const date = data.exportedAt.toISOString().slice(0, 10);
    return new Response(`${JSON.stringify(data, null, 2)}\n`, {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="my-data-${date}.json"`,
        // Personal data: no shared cache, no history or back/forward copy keeps it.
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    if (!isAuthError(error)) throw error;
    throw redirect(`/account?export-error=${error.code}#your-data`);
  }
}
