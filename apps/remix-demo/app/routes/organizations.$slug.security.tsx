import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { Checkbox, DoneNotice, ErrorSummary, Submit, useFieldProblem } from "~/components/form";
import { SecurityNav } from "~/components/security-nav";
import { failure, field, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, requireOrganization } from "~/lib/org.server";

/**
 * The organization's authenticator policy (docs/passkeys.md "Authenticator policy"): those who may
 * change the organization set it; every member sees it and whether their own passkeys fit.
 */
export const handle = { title: "organizations.security.title" };

const MODES = ["any", "allow-list", "deny-list"] as const;
type Mode = (typeof MODES)[number];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const query = { organizationId: organization.id };
  const { data: check } = await auth.api.checkPasskeyPolicy({ query, headers: request.headers });
  return { canManage: canManage(roles), policy: check.policy, check, slug: organization.slug };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  const chosen = field(form, "mode");
  const mode: Mode = (MODES as readonly string[]).includes(chosen) ? (chosen as Mode) : "any";
  // One AAGUID a line (commas and spaces also separate them); the core checks each.
  const aaguids = field(form, "aaguids")
    .split(/[\s,;]+/)
    .filter((aaguid) => aaguid !== "");
  try {
    await auth.api.setPasskeyPolicy({
      body: {
        organizationId: organization.id,
        requireUserVerification: form.get("requireUserVerification") === "on",
        mode,
        aaguids,
      },
      headers: request.headers,
    });
    return redirectWith(`/organizations/${organization.slug}/security?done=1`);
  } catch (error) {
    return failure(error, form, { INVALID_AAGUID: "aaguids", VALIDATION_ERROR: "aaguids" });
  }
}

export default function PasskeyPolicy() {
  const { t } = useT();
  const location = useLocation();
  const { canManage, policy, check, slug } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const problem = useFieldProblem()(state, "aaguids");
  const modeLabel: Record<Mode, string> = {
    any: t("organizations.security.modeAny"),
    "allow-list": t("organizations.security.modeAllow"),
    "deny-list": t("organizations.security.modeDeny"),
  };
  const list = policy.aaguids.join(", ");
  return (
    <section aria-labelledby="security-title">
      <SecurityNav slug={slug} />
      <h2 id="security-title">{t("organizations.security.title")}</h2>
      <DoneNotice outcomes={{ 1: "common.saved" }} state={state} />
      <p>{t("organizations.security.intro")}</p>
      <ul data-testid="passkey-policy-summary">
        {policy.requireUserVerification ? <li>{t("organizations.security.summaryUv")}</li> : null}
        <li>
          {policy.mode === "any"
            ? t("organizations.security.summaryAny")
            : policy.mode === "allow-list"
              ? t("organizations.security.summaryAllow", { list })
              : t("organizations.security.summaryDeny", { list })}
        </li>
      </ul>
      {canManage ? (
        <Form method="post" noValidate key={location.key}>
          <ErrorSummary state={state} labels={{ aaguids: t("organizations.security.aaguids") }} />
          <Checkbox
            name="requireUserVerification"
            label={t("organizations.security.requireUv")}
            defaultChecked={policy.requireUserVerification}
          />
          <fieldset>
            <legend>{t("organizations.security.mode")}</legend>
            {MODES.map((mode) => (
              <div className="checkbox" key={mode}>
                <input
                  id={`mode-${mode}`}
                  type="radio"
                  name="mode"
                  value={mode}
                  defaultChecked={(state?.values?.mode ?? policy.mode) === mode}
                />
                <label htmlFor={`mode-${mode}`}>{modeLabel[mode]}</label>
              </div>
            ))}
          </fieldset>
          <div className={problem ? "field field-invalid" : "field"}>
            <label htmlFor="field-aaguids">{t("organizations.security.aaguids")}</label>
            <p className="hint" id="field-aaguids-hint">
              {t("organizations.security.aaguidsHint")}
            </p>
            {problem ? (
              <p className="field-error" id="field-aaguids-error">
                {problem}
              </p>
            ) : null}
            <textarea
              id="field-aaguids"
              name="aaguids"
              rows={4}
              defaultValue={state?.values?.aaguids ?? policy.aaguids.join("\n")}
              aria-describedby={problem ? "field-aaguids-hint field-aaguids-error" : "field-aaguids-hint"}
              aria-invalid={problem ? true : undefined}
            />
          </div>
          <Submit>{t("organizations.security.save")}</Submit>
        </Form>
      ) : (
        <p className="muted" data-testid="passkey-policy-read-only">
          {t("organizations.security.readOnly")}
        </p>
      )}
      <h3 id="my-passkeys-title">{t("organizations.security.yours")}</h3>
      {check.satisfied && check.passkeys.length > 0 ? <p>{t("organizations.security.satisfied")}</p> : null}
      {check.passkeys.length === 0 ? <p>{t("organizations.security.none")}</p> : null}
      <ul aria-labelledby="my-passkeys-title">
        {check.passkeys.map((passkey) => (
          <li key={passkey.id} data-fits={passkey.fits}>
            {passkey.name ?? t("account.passkeys.unnamed")} (
            {passkey.authenticatorName ?? t("account.passkeys.unknownAuthenticator")}):{" "}
            {passkey.fits
              ? t("organizations.security.fits")
              : passkey.reason === "user-verification"
                ? t("organizations.security.misfitUv")
                : t("organizations.security.misfitModel")}
          </li>
        ))}
      </ul>
      {check.satisfied ? null : (
        <p>
          <Link to="/account/passkeys" className="button">
            {t("organizations.passkeyPolicy.add")}
          </Link>
        </p>
      )}
    </section>
  );
}
