import { data } from "@remix-run/node";
import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { field, invalid, redirectWith } from "./forms.server";
import { toTesseraLanguage } from "./i18n";
import { requestedLanguage } from "./i18n.server";

/**
 * Sign-in through an organization's single sign-on (home-realm discovery, issue 31 §2): the address
 * typed on the sign-in page (or an organization's slug) picks the connection; the core answers the
 * identity provider's URL and a state cookie, which the browser carries there. Failures of the
 * callback come back to the sign-in page as `?error=<code>` (routes/sign-in.tsx shows the sentence).
 */
export async function startSsoSignIn(request: Request, form: FormData, redirectTo: string) {
  const email = field(form, "email").trim();
  const slug = field(form, "organizationSlug").trim();
  if (email === "" && slug === "") return invalid({ email: "EMAIL_REQUIRED" }, form);
  const lang = requestedLanguage(request);
  const auth = await getAuth();
  const result = await auth.api
    .signInSSO({
      body: {
        ...(slug !== "" ? { organizationSlug: slug } : { email }),
        callbackURL: redirectTo,
        errorCallbackURL: `/sign-in${redirectTo !== "/" ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`,
        ...(lang ? { language: toTesseraLanguage(lang) } : {}),
      },
      headers: request.headers,
    })
    .catch((error: unknown) => {
      // No connection serves the address: said in the app's words, under the field.
      if (isAuthError(error) && error.code === "SSO_PROVIDER_NOT_FOUND") return null;
      throw error;
    });
  if (result === null)
    return invalid({ [slug !== "" ? "organizationSlug" : "email"]: "SSO_NO_CONNECTION" }, form);
  return redirectWith(result.data.url, result.headers);
}

/** What the page needs to offer the organization's SSO after a refused password or mailed-link sign-in. */
export interface SsoRequiredAnswer {
  ssoRequired: { organization: string; email: string };
}

/**
 * SSO_REQUIRED (features/sso-domains/require-sso.ts) as the page shows it: the organization's name
 * for the catalogue sentence and the address, for the "Continue with … single sign-on" button. Null
 * for any other error.
 */
export function answerSsoRequired(error: unknown, form: FormData) {
  if (!isAuthError(error) || error.code !== "SSO_REQUIRED") return null;
  const organization = String(error.details?.organization ?? "");
  return data<SsoRequiredAnswer>(
    { ssoRequired: { organization, email: field(form, "email").trim() } },
    { status: 403 },
  );
}

/** The codes of ?error= a callback may send back; anything else is no code of ours. */
export function callbackErrorOf(params: URLSearchParams): string | null {
  const error = params.get("error");
  return error && /^[A-Za-z_]{1,64}$/.test(error) ? error.toUpperCase() : null;
}
