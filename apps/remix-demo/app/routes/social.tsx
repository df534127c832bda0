import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { field, readForm, redirectWith } from "~/lib/forms.server";
import { toTesseraLanguage } from "~/lib/i18n";
import { requestedLanguage } from "~/lib/i18n.server";
import { safeRedirect } from "~/lib/session.server";

// Starts a provider sign-in (or, with intent=link, links a provider to the signed-in user): the core
// answers with the provider's URL and a state cookie, which the browser carries there. A user the
// sign-in creates gets the language this visitor browses in (cookie, then Accept-Language).
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const callbackURL = safeRedirect(field(form, "callbackURL"));
  const lang = requestedLanguage(request);
  const result = await startProviderFlow(request, form, callbackURL, lang);
  const url = result.data && "url" in result.data ? result.data.url : null;
  if (!url) throw redirect("/error?error=PROVIDER_NOT_FOUND");
  return redirectWith(url, result.headers);
}

/**
 * The core's answer; a refusal (an unknown provider, a callback the core's stricter path rule
 * refuses) goes to the error page with its code instead of a 500.
 */
async function startProviderFlow(
  request: Request,
  form: FormData,
  callbackURL: string,
  lang: ReturnType<typeof requestedLanguage>,
) {
  const auth = await getAuth();
  const provider = field(form, "provider");
  try {
    return field(form, "intent") === "link"
      ? await auth.api.linkSocialAccount({
          body: { provider, callbackURL, errorCallbackURL: "/account/linked" },
          headers: request.headers,
        })
      : await auth.api.signInSocial({
          body: {
            provider,
            callbackURL,
            errorCallbackURL: "/error",
            ...(lang ? { language: toTesseraLanguage(lang) } : {}),
          },
          headers: request.headers,
        });
  } catch (error) {
    if (isAuthError(error)) throw redirect(`/error?error=${error.code}`);
    throw error;
  }
}
