import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { applyCookies } from "@tessera/auth-core/remix";
import { getAuth, remix } from "~/auth.server";
import { Checkbox, DoneNotice, ErrorSummary, Field, type FormState, Submit } from "~/components/form";
import { PasskeySignIn } from "~/components/passkeys";
import { SocialButtons } from "~/components/social";
import { SsoRequired } from "~/components/sso-required";
import { failure, field, invalid, missingFields, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { offerPasskeyCookie } from "~/lib/passkey-offer.server";
import { getViewer, safeRedirect } from "~/lib/session.server";
import { mailSignInLink } from "~/lib/sign-in-mail.server";
import { answerSsoRequired, callbackErrorOf, startSsoSignIn } from "~/lib/sso-sign-in.server";
import { twoFactorPath } from "~/lib/two-factor-path";

export const handle = { title: "signIn.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const redirectTo = safeRedirect(params.get("redirectTo"));
  if (await getViewer(request)) throw redirect(redirectTo);
  const auth = await getAuth();
  return {
    providers: Object.keys(auth.context.options.socialProviders).filter(Boolean),
    redirectTo,
    refusedAddress: refusedAddressOf(params),
  };
}

/**
 * The code page sends an address that is no address back here (routes/sign-in_.code.tsx), to be
 * corrected in the form's field with its problem, as a refused submit would show it. A failed SSO
 * callback comes back with its catalogue code (lib/sso-sign-in.server.ts): shown as its sentence.
 */
function refusedAddressOf(params: URLSearchParams): FormState | undefined {
  const code = callbackErrorOf(params);
  if (code === null) return undefined;
  if (code !== "INVALID_EMAIL") return { errors: { form: code } };
  return { errors: { email: "INVALID_EMAIL" }, values: { email: params.get("email") ?? "" } };
}

export async function action(args: ActionFunctionArgs) {
  const form = await readForm(args.request);
  const redirectTo = safeRedirect(field(form, "redirectTo"));
  const intent = field(form, "intent");
  try {
    if (intent === "sso") return await startSsoSignIn(args.request, form, redirectTo);
    return intent === "email-link"
      ? await mailLinkAndCode(args, form, redirectTo)
      : await signInWithPassword(args, form, redirectTo);
  } catch (error) {
    return answerSsoRequired(error, form) ?? failure(error, form, SSO_FIELDS);
  }
}

async function signInWithPassword(
  { request, context }: ActionFunctionArgs,
  form: FormData,
  redirectTo: string,
) {
  const missing = missingFields(form, { email: "EMAIL_REQUIRED", password: "PASSWORD_REQUIRED" });
  if (missing) return invalid(missing, form);
  const auth = await getAuth();
  const result = await auth.api.signInEmail({
    body: {
      email: field(form, "email"),
      password: field(form, "password"),
      rememberMe: form.get("rememberMe") === "on",
    },
    ...remix.onBehalfOf({ request, context }),
  });
  if ("twoFactorRedirect" in result.data) {
    return redirectWith(twoFactorPath(result.data.twoFactorMethods, redirectTo), result.headers);
  }
  // An account without a passkey is offered one on the next page (lib/passkey-offer.server.ts).
  const passkeys = await auth.api.listPasskeys({ headers: applyCookies(request, result.headers) });
  const offer = passkeys.data.length === 0 ? offerPasskeyCookie(request) : null;
  return redirectWith(redirectTo, result.headers, offer);
}

async function mailLinkAndCode(args: ActionFunctionArgs, form: FormData, redirectTo: string) {
  const missing = missingFields(form, { email: "EMAIL_REQUIRED" });
  if (missing) return invalid(missing, form);
  return mailSignInLink(args, field(form, "email").trim(), redirectTo);
}

/** A connection turned off is the email field's problem. */
const SSO_FIELDS = { SSO_PROVIDER_DISABLED: "email" };

/** `?done=`: a reset password (routes/reset-password.tsx), a sign-out (routes/sign-out.tsx). */
const OUTCOMES = { reset: "resetPassword.done", "signed-out": "signIn.signedOut" };

export default function SignIn() {
  const { t } = useT();
  const { providers, redirectTo, refusedAddress } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const ssoRequired = answer && "ssoRequired" in answer ? answer.ssoRequired : null;
  const state = (answer && "errors" in answer ? answer : undefined) ?? refusedAddress;
  return (
    <section className="card narrow">
      <h1>{t("signIn.title")}</h1>
      <DoneNotice outcomes={OUTCOMES} state={state} />
      <ErrorSummary state={state} labels={{ email: t("fields.email"), password: t("fields.password") }} />
      {ssoRequired ? <SsoRequired {...ssoRequired} redirectTo={redirectTo} /> : null}
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {/* "webauthn": the browser offers the account's passkeys here (components/passkeys.tsx). */}
        <Field
          name="email"
          type="email"
          label={t("fields.email")}
          state={state}
          autoComplete="username webauthn"
          required
        />
        <Field
          name="password"
          type="password"
          label={t("fields.password")}
          state={state}
          autoComplete="current-password"
        />
        <Checkbox name="rememberMe" label={t("signIn.rememberMe")} defaultChecked />
        <Submit intent="password">{t("signIn.submit")}</Submit>
        <p className="divider">{t("signIn.or")}</p>
        <p className="hint">{t("signIn.emailLinkHint")}</p>
        <Submit intent="email-link" className="button button-secondary button-wide">
          {t("signIn.emailLink")}
        </Submit>
        {/* Home-realm discovery: the same address picks the organization's identity provider. */}
        <p className="hint">{t("signIn.ssoHint")}</p>
        <Submit intent="sso" className="button button-secondary button-wide">
          {t("signIn.sso")}
        </Submit>
      </Form>
      <PasskeySignIn redirectTo={redirectTo} />
      <SocialButtons providers={providers} callbackURL={redirectTo} />
      <p>
        <Link to="/forgot-password">{t("signIn.forgot")}</Link>
      </p>
      <p>
        {t("signIn.noAccount")}{" "}
        <Link to={`/sign-up${redirectTo !== "/" ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>
          {t("signIn.signUpLink")}
        </Link>
      </p>
    </section>
  );
}
