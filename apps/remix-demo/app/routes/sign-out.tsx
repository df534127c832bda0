import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getAuth } from "~/auth.server";
import { readForm, redirectWith } from "~/lib/forms.server";

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  await readForm(request);
  const auth = await getAuth();
  const result = await auth.api.signOut({ headers: request.headers });
  return redirectWith("/sign-in?done=signed-out", result.headers);
}
