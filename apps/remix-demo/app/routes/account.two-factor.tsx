import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import QRCode from "qrcode";
import { getAuth } from "~/auth.server";
import { ErrorSummary, Field, type FormState, Notice, Submit } from "~/components/form";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.twoFactor" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireViewer(request);
  return { enabled: user.twoFactorEnabled === true };
}

interface Enrollment extends FormState {
  enrollment?: { qrSrc: string; secret: string; backupCodes: string[] };
  backupCodes?: string[];
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  await requireViewer(request);
  const auth = await getAuth();
  const intent = field(form, "intent");
  const password = field(form, "password");
  try {
    if (intent === "enable") {
      const { data } = await auth.api.enableTwoFactor({ body: { password }, headers: request.headers });
      // The QR code is drawn here, on the server: the secret goes to no third-party service.
      const qrSvg = await QRCode.toString(data.totpURI, {
        type: "svg",
        margin: 1,
        errorCorrectionLevel: "M",
      });
      const secret = new URL(data.totpURI).searchParams.get("secret") ?? "";
      const qrSrc = `data:image/svg+xml;base64,${Buffer.from(qrSvg).toString("base64")}`;
      return { enrollment: { qrSrc, secret, backupCodes: data.backupCodes } } satisfies Enrollment;
    }
    if (intent === "verify") {
      const result = await auth.api.verifyTOTP({
        body: { code: field(form, "code").replace(/\s+/g, "") },
        headers: request.headers,
      });
      return redirectWith("/account/two-factor?done=enabled", result.headers);
    }
    if (intent === "regenerate") {
      const { data } = await auth.api.generateBackupCodes({ body: { password }, headers: request.headers });
      return { backupCodes: data.backupCodes } satisfies Enrollment;
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

export default function TwoFactorSettings() {
  const { t } = useT();
  const { enabled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as Enrollment | undefined;
  const [params] = useSearchParams();
  const done = params.get("done");
  const labels = { password: t("fields.password"), code: t("twoFactor.code") };
  const enrollment = result?.enrollment;
  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{t("account.twoFactor.title")}</h2>
      {done ? (
        <Notice>{t(`account.twoFactor.done.${done === "enabled" ? "enabled" : "disabled"}`)}</Notice>
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
              <Submit intent="verify">{t("account.twoFactor.confirm")}</Submit>
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
