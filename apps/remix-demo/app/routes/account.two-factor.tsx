import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { ErrorSummary, Field, type FormState, Notice, Submit } from "~/components/form";
import { failure, field, invalid, missingFields, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";
import {
  forgetEnrollment,
  hasKeptEnrollment,
  keepEnrollment,
  readEnrollment,
  showEnrollment,
} from "~/lib/two-factor-enrollment.server";

export const handle = { title: "account.tabs.twoFactor" };

/**
 * A set-up in progress is shown from the app's kept copy (lib/two-factor-enrollment.server.ts) until
 * a code confirms it or the user cancels: a wrong code, a reload or Vite's first-visit reload in
 * development no longer throw it away.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, session } = await requireViewer(request);
  const enabled = user.twoFactorEnabled === true;
  const kept = enabled ? null : readEnrollment(request, { userId: user.id, sessionId: session.id });
  const enrollment = kept ? await showEnrollment(kept) : null;
  const headers = new Headers();
  if (!kept && hasKeptEnrollment(request)) headers.append("set-cookie", forgetEnrollment());
  return data({ enabled, enrollment }, { headers });
}

interface Settings extends FormState {
  backupCodes?: string[];
}

/** An empty field says what to enter, not that the (absent) password or code is wrong. */
const REQUIRED_OF_INTENT: Record<string, Record<string, string>> = {
  enable: { password: "PASSWORD_REQUIRED" },
  regenerate: { password: "PASSWORD_REQUIRED" },
  disable: { password: "PASSWORD_REQUIRED" },
  verify: { code: "CODE_REQUIRED" },
};

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { user, session } = await requireViewer(request);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const password = field(form, "password");
  const required = REQUIRED_OF_INTENT[intent];
  const missing = required ? missingFields(form, required) : null;
  if (missing) return invalid(missing, form);
  try {
    if (intent === "enable") {
      const { data: enrollment } = await auth.api.enableTwoFactor({
        body: { password },
        headers: request.headers,
      });
      const headers = new Headers();
      headers.append("set-cookie", keepEnrollment(enrollment, { userId: user.id, sessionId: session.id }));
      return redirectWith("/account/two-factor", headers);
    }
    if (intent === "cancel") {
      // The core keeps the unconfirmed secret, which gates nothing and the next set-up replaces;
      // removing it needs the password (disable), which cancelling does not ask for.
      const headers = new Headers();
      headers.append("set-cookie", forgetEnrollment());
      return redirectWith("/account/two-factor?done=cancelled", headers);
    }
    if (intent === "verify") {
      const result = await auth.api.verifyTOTP({
        body: { code: field(form, "code").replace(/\s+/g, "") },
        headers: request.headers,
      });
      const headers = new Headers(result.headers);
      headers.append("set-cookie", forgetEnrollment());
      return redirectWith("/account/two-factor?done=enabled", headers);
    }
    if (intent === "regenerate") {
      const { data: codes } = await auth.api.generateBackupCodes({
        body: { password },
        headers: request.headers,
      });
      return { backupCodes: codes.backupCodes } satisfies Settings;
    }
    if (intent === "disable") {
      const result = await auth.api.disableTwoFactor({ body: { password }, headers: request.headers });
      return redirectWith("/account/two-factor?done=disabled", result.headers);
    }
    return redirectWith("/account/two-factor");
  } catch (error) {
    return failure(error, form);
  }
}

function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useT();
  return (
    <div>
      <h3>{t("account.twoFactor.backupCodesTitle")}</h3>
      <p className="warning">{t("account.twoFactor.backupCodesOnce")}</p>
      <ul className="codes" aria-label={t("account.twoFactor.backupCodesTitle")}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

const DONE = ["enabled", "disabled", "cancelled"];

export default function TwoFactorSettings() {
  const { t } = useT();
  const { enabled, enrollment } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Settings | undefined;
  const [params] = useSearchParams();
  const done = params.get("done");
  const labels = { password: t("fields.password"), code: t("twoFactor.code") };
  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t("account.twoFactor.title")}</h2>
      {done ? (
        <Notice>{t(`account.twoFactor.done.${DONE.includes(done) ? done : "disabled"}`)}</Notice>
      ) : null}
      <p>
        <strong>{enabled ? t("account.twoFactor.statusOn") : t("account.twoFactor.statusOff")}</strong>
      </p>
      <ErrorSummary state={result} labels={labels} />
      {enrollment ? (
        <div className="grid-2">
          <div>
            <p>{t("account.twoFactor.scan")}</p>
            <img
              className="qr"
              src={enrollment.qrSrc}
              alt={t("account.twoFactor.qrLabel")}
              width={200}
              height={200}
            />
            <p>{t("account.twoFactor.secret")}</p>
            <p className="secret" data-testid="totp-secret">
              {enrollment.secret}
            </p>
          </div>
          <div>
            <Form method="post" noValidate>
              <Field
                name="code"
                label={t("account.twoFactor.confirmCode")}
                state={result}
                inputMode="numeric"
                autoComplete="one-time-code"
              />
              <div className="row-actions">
                <Submit intent="verify">{t("account.twoFactor.confirm")}</Submit>
                <Submit intent="cancel" className="button button-secondary">
                  {t("account.twoFactor.cancel")}
                </Submit>
              </div>
            </Form>
            <BackupCodes codes={enrollment.backupCodes} />
          </div>
        </div>
      ) : result?.backupCodes ? (
        <BackupCodes codes={result.backupCodes} />
      ) : null}
      {!enrollment && !enabled ? (
        <Form method="post" noValidate>
          <p>{t("account.twoFactor.enableIntro")}</p>
          <Field
            name="password"
            type="password"
            label={labels.password}
            state={result}
            autoComplete="current-password"
          />
          <Submit intent="enable">{t("account.twoFactor.enable")}</Submit>
        </Form>
      ) : null}
      {enabled && !enrollment ? (
        <Form method="post" noValidate>
          <Field
            name="password"
            type="password"
            label={labels.password}
            state={result}
            autoComplete="current-password"
          />
          <div className="row-actions">
            <Submit intent="regenerate" className="button button-secondary">
              {t("account.twoFactor.regenerate")}
            </Submit>
            <Submit intent="disable" className="button button-danger">
              {t("account.twoFactor.disable")}
            </Submit>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
