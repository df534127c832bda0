import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { ErrorSummary, Field, Notice, Submit } from "~/components/form";
import { YourData } from "~/components/your-data";
import { readAppEnv } from "~/lib/env.server";
import { type FormFailure, failure, field, missingFields, readForm, redirectWith } from "~/lib/forms.server";
import { fromTesseraLanguage, isLanguageCode, LANGUAGES, toTesseraLanguage, useT } from "~/lib/i18n";
import { languageCookie, resolveLanguage } from "~/lib/i18n.server";
import { requireViewer } from "~/lib/session.server";

export const handle = { title: "account.tabs.profile" };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireViewer(request);
  return {
    name: user.name,
    email: user.email,
    image: user.image ?? "",
    emailVerified: user.emailVerified,
    language: fromTesseraLanguage(user.language) ?? resolveLanguage(request),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { user } = await requireViewer(request);
  const auth = await getAuth();
  try {
    if (field(form, "intent") === "sign-in-again") {
      // The export asked for a fresh session: a new sign-in gives one, then back here.
      const result = await auth.api.signOut({ headers: request.headers });
      return redirectWith("/sign-in?redirectTo=%2Faccount%23your-data", result.headers);
    }
    if (field(form, "intent") === "resend-verification") {
      await auth.api.sendVerificationEmail({
        body: { email: user.email, callbackURL: "/verify-email" },
        headers: request.headers,
      });
      return redirectWith("/account?done=verification-sent");
    }
    // The core takes an empty name (sign-up does too); a profile without one is refused here.
    const missing = missingFields(form, { name: "NAME_REQUIRED" });
    const lang = field(form, "language");
    const image = field(form, "image").trim();
    if (missing) return refuseProfile(form, missing, image);
    const result = await auth.api.updateUser({
      body: {
        name: field(form, "name").trim(),
        image: image === "" ? null : image,
        ...(isLanguageCode(lang) ? { language: toTesseraLanguage(lang) } : {}),
      },
      headers: request.headers,
    });
    const headers = new Headers(result.headers);
    if (isLanguageCode(lang)) headers.append("set-cookie", languageCookie(lang));
    return redirectWith("/account?done=saved", headers);
  } catch (error) {
    return failure(error, form, {
      FAILED_TO_UPDATE_USER: "form",
      INVALID_URL: "image",
      VALIDATION_ERROR: "form",
    });
  }
}

/**
 * The refused profile when the name is missing: the core is not asked, so the image's own problem
 * is checked here too and both show at once. The rule is the core's (http/user-urls.ts, docs/
 * security.md "URLs users supply"): an absolute https URL, or http while the app runs on http,
 * without credentials; keep the two in step.
 */
function refuseProfile(form: FormData, missing: Record<string, string>, image: string) {
  const allowsHttp = readAppEnv(process.env).baseURL.startsWith("http:");
  const errors: Record<string, string> = { ...missing };
  const rules: FormFailure["rules"] = {};
  if (image !== "" && !isAllowedImage(image, allowsHttp)) {
    errors.image = "VALIDATION_ERROR";
    rules.image = { rule: allowsHttp ? "urlHttp" : "url" };
  }
  const values = {
    name: field(form, "name"),
    image: field(form, "image"),
    language: field(form, "language"),
  };
  return data<FormFailure>({ errors, values, rules }, { status: 400 });
}

function isAllowedImage(value: string, allowsHttp: boolean): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.protocol !== "https:" && !(allowsHttp && url.protocol === "http:")) return false;
  return url.username === "" && url.password === "";
}

export default function Profile() {
  const { t } = useT();
  const data = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const [params] = useSearchParams();
  const done = params.get("done");
  const exportError = params.get("export-error");
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title">{t("account.profile.title")}</h2>
      {done === "saved" ? <Notice>{t("common.saved")}</Notice> : null}
      {done === "verification-sent" ? <Notice>{t("account.profile.verificationSent")}</Notice> : null}
      <p>
        {t("fields.email")}: <strong>{data.email}</strong>{" "}
        {data.emailVerified ? t("account.profile.verified") : t("account.profile.unverified")}
      </p>
      {!data.emailVerified ? (
        <Form method="post">
          <Submit intent="resend-verification" className="button button-secondary">
            {t("account.profile.resendVerification")}
          </Submit>
        </Form>
      ) : null}
      <ErrorSummary state={state} labels={{ name: t("fields.name"), image: t("fields.image") }} />
      <Form method="post" noValidate>
        <Field
          name="name"
          label={t("fields.name")}
          defaultValue={data.name}
          state={state}
          autoComplete="name"
        />
        <Field name="image" type="url" label={t("fields.image")} defaultValue={data.image} state={state} />
        <div className="field">
          <label htmlFor="field-language">{t("fields.language")}</label>
          <select id="field-language" name="language" defaultValue={data.language}>
            {LANGUAGES.map((language) => (
              <option key={language.code} value={language.code} lang={language.code}>
                {language.label}
              </option>
            ))}
          </select>
        </div>
        <Submit intent="profile">{t("common.save")}</Submit>
      </Form>
      <YourData error={exportError && /^[A-Z_]{1,64}$/.test(exportError) ? exportError : null} />
    </section>
  );
}
