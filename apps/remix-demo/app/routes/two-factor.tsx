import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { getAuth, remix } from "~/auth.server";
import { Checkbox, ErrorSummary, Field, Notice, Submit } from "~/components/form";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { safeRedirect } from "~/lib/session.server";
import { twoFactorPath } from "~/lib/two-factor-path";

export const handle = { title: "twoFactor.title" };

/**
 * Whether a sign-in waits for its second step: the core's challenge cookie (`<prefix>.two_factor`,
 * core features/two-factor/cookies.ts) is there. Its presence only: whether it is still live is the
 * core's answer (INVALID_TWO_FACTOR_COOKIE) when a code is sent.
 */
function hasSignInInProgress(request: Request): boolean {
  return (request.headers.get("cookie") ?? "")
    .split(";")
    .some((part) => /\.two_factor$/.test(part.split("=")[0]?.trim() ?? ""));
}

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  return { methods: (params.get("methods") ?? "totp").split(","), inProgress: hasSignInInProgress(request) };
}

// The challenge cookie set by sign-in identifies the user; each method checks its own code.
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const redirectTo = safeRedirect(field(form, "redirectTo"));
  const methods = field(form, "methods");
  const trustDevice = form.get("trustDevice") === "on";
  const code = field(form, "code").replace(/\s+/g, "");
  try {
    if (intent === "send-otp") {
      const sent = await auth.api.sendTwoFactorOTP({ headers: request.headers });
      return redirectWith(
        `/two-factor?methods=${methods}&method=otp&sent=1&redirectTo=${encodeURIComponent(redirectTo)}`,
        sent.headers,
      );
    }
    const call =
      intent === "otp"
        ? auth.api.verifyTwoFactorOTP({
            body: { code, trustDevice },
            ...remix.onBehalfOf({ request, context }),
          })
        : intent === "backup"
          ? auth.api.verifyBackupCode({
              body: { code, trustDevice },
              ...remix.onBehalfOf({ request, context }),
            })
          : auth.api.verifyTOTP({
              body: { code, trustDevice },
              ...remix.onBehalfOf({ request, context }),
            });
    const result = await call;
    return redirectWith(redirectTo, result.headers);
  } catch (error) {
    return failure(error, form, {}, 400);
  }
}

export default function TwoFactor() {
  const { t } = useT();
  const { inProgress } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const methods = (params.get("methods") ?? "totp").split(",");
  const method = state?.values?.intent ?? params.get("method") ?? (methods.includes("totp") ? "totp" : "otp");
  const redirectTo = params.get("redirectTo") ?? "/";
  const base = twoFactorPath(methods, redirectTo);
  const signInLink = (
    <Link className="button" to={`/sign-in?redirectTo=${encodeURIComponent(redirectTo)}`}>
      {t("nav.signIn")}
    </Link>
  );
  if (!inProgress) {
    return (
      <section className="card narrow">
        <h1>{t("twoFactor.title")}</h1>
        <p>{t("twoFactor.noChallenge")}</p>
        <p>{signInLink}</p>
      </section>
    );
  }
  const challengeGone = state?.errors?.form === "INVALID_TWO_FACTOR_COOKIE";
  return (
    <section className="card narrow">
      <h1>{t("twoFactor.title")}</h1>
      {params.get("sent") ? <Notice>{t("twoFactor.otpSent")}</Notice> : null}
      <ErrorSummary state={state} labels={{ code: t("twoFactor.code") }} />
      {challengeGone ? <p>{signInLink}</p> : null}
      <Form method="post" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="methods" value={methods.join(",")} />
        <p>{t(`twoFactor.instructions.${method}`)}</p>
        <Field
          name="code"
          label={method === "backup" ? t("twoFactor.backupCode") : t("twoFactor.code")}
          state={state}
          autoComplete="one-time-code"
          inputMode={method === "backup" ? "text" : "numeric"}
          required
        />
        <Checkbox name="trustDevice" label={t("twoFactor.trustDevice")} />
        <Submit intent={method}>{t("twoFactor.verify")}</Submit>
        {method === "otp" ? (
          <p>
            <button type="submit" name="intent" value="send-otp" className="button button-secondary">
              {t("twoFactor.sendOtp")}
            </button>
          </p>
        ) : null}
      </Form>
      <nav aria-label={t("twoFactor.otherMethods")}>
        <ul className="inline-list">
          {methods.includes("totp") && method !== "totp" ? (
            <li>
              <Link to={`${base}&method=totp`}>{t("twoFactor.useTotp")}</Link>
            </li>
          ) : null}
          {methods.includes("otp") && method !== "otp" ? (
            <li>
              <Link to={`${base}&method=otp`}>{t("twoFactor.useOtp")}</Link>
            </li>
          ) : null}
          {method !== "backup" ? (
            <li>
              <Link to={`${base}&method=backup`}>{t("twoFactor.useBackup")}</Link>
            </li>
          ) : null}
        </ul>
      </nav>
    </section>
  );
}
