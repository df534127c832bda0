import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getAuth } from "~/auth.server";
import { field, readForm } from "~/lib/forms.server";
import { isLanguageCode, toTesseraLanguage } from "~/lib/i18n";
import { languageCookie } from "~/lib/i18n.server";
import { getViewer, safeRedirect } from "~/lib/session.server";

export const loader = () => redirect("/");

// The header's switcher: a cookie for everyone, and the user's `language` (mails too) when signed in.
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const lang = field(form, "lang");
  const back = safeRedirect(field(form, "redirectTo"));
  if (!isLanguageCode(lang)) return redirect(back);
  const viewer = await getViewer(request);
  if (viewer && !viewer.session.impersonatedBy) {
    const auth = await getAuth();
    await auth.api.updateUser({ body: { language: toTesseraLanguage(lang) }, headers: request.headers });
  }
  return redirect(back, { headers: { "set-cookie": languageCookie(lang) } });
}
