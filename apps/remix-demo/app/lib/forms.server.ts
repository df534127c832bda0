import { data } from "@remix-run/node";
import { isAuthError } from "@tessera/auth-core";
import { CROSS_SITE_REFUSED } from "./cross-site";
import { readAppEnv } from "./env.server";
import { type FieldRule, fieldProblems } from "./field-problems";

/** What a failed action sends back: the catalogue code per field (or "form"), and the values typed. */
export interface FormFailure {
  errors: Record<string, string>;
  values: Record<string, string>;
  /** For a field refused with VALIDATION_ERROR: the rule it broke, shown instead of the code's text. */
  rules?: Record<string, FieldRule>;
}

/**
 * The app's own POSTs must come from its own pages (a browser always sends Origin on POST forms):
 * a cross-site form cannot drive an action even where it calls no auth.api endpoint.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const allowed = new Set([new URL(readAppEnv(process.env).baseURL).origin, new URL(request.url).origin]);
  if (!origin || !allowed.has(origin)) {
    throw new Response(CROSS_SITE_REFUSED, { status: 403, statusText: "Forbidden" });
  }
}

/** Reads a POSTed form after the Origin check. */
export async function readForm(request: Request): Promise<FormData> {
  assertSameOrigin(request);
  return request.formData();
}

export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** The codes the core's password rules refuse a new password with (features/users/password-policy.ts). */
const NEW_PASSWORD_CODES = [
  "PASSWORD_TOO_SHORT",
  "PASSWORD_TOO_LONG",
  "PASSWORD_COMPROMISED",
  "PASSWORD_CONTEXT_SPECIFIC",
] as const;

/**
 * `failure`'s `fieldFor` for a form whose new password is not named `password` (change, set, an
 * admin's set-password): every refusal of the password rules goes next to that field.
 */
export function newPasswordCodesOn(name: string): Record<string, string> {
  return Object.fromEntries(NEW_PASSWORD_CODES.map((code) => [code, name]));
}

/** Which field a catalogue code concerns; the rest show in the summary only. */
const FIELD_OF_CODE: Record<string, string> = {
  INVALID_EMAIL: "email",
  USER_ALREADY_EXISTS: "email",
  EMAIL_IS_THE_SAME: "newEmail",
  EMAIL_NOT_VERIFIED: "email",
  ...newPasswordCodesOn("password"),
  INVALID_PASSWORD: "password",
  INVALID_CODE: "code",
  INVALID_BACKUP_CODE: "code",
  OTP_HAS_EXPIRED: "code",
  ORGANIZATION_ALREADY_EXISTS: "slug",
  ORGANIZATION_SLUG_TAKEN: "slug",
};

/**
 * Turns a refused auth.api call into a 400 re-render: the code goes next to the field it concerns
 * (`fieldFor` overrides the table per form), and the typed values come back except passwords.
 * A VALIDATION_ERROR names its fields: each issue goes to the form field of its path (`fieldFor`
 * maps an API path such as `data.image` to a field; else the path's last part) with the rule it
 * broke; issues of no field on this form fall back to `fieldFor.VALIDATION_ERROR`, else the summary.
 */
export function failure(
  error: unknown,
  form: FormData | null,
  fieldFor: Record<string, string> = {},
  status = 400,
) {
  if (!isAuthError(error)) throw error;
  const values = keptValues(form);
  if (error.code === "VALIDATION_ERROR") {
    const { errors, rules } = fieldProblems(error.details?.issues, form, fieldFor);
    if (Object.keys(rules).length > 0) return data<FormFailure>({ errors, values, rules }, { status });
  }
  const target = fieldFor[error.code] ?? FIELD_OF_CODE[error.code] ?? "form";
  return data<FormFailure>({ errors: { [target]: error.code }, values }, { status });
}

/**
 * The empty ones of the named fields, each with its own code ("Enter your email address"), or null
 * when all are filled: checked before the core is asked, whose answer for an empty field names a
 * format ("Invalid email") rather than what is missing.
 */
export function missingFields(form: FormData, codes: Record<string, string>): Record<string, string> | null {
  const missing = Object.entries(codes).filter(([name]) => field(form, name).trim() === "");
  return missing.length > 0 ? Object.fromEntries(missing) : null;
}

export function invalid(errors: Record<string, string>, form: FormData | null) {
  return data<FormFailure>({ errors, values: keptValues(form) }, { status: 400 });
}

function keptValues(form: FormData | null): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form?.entries() ?? []) {
    if (typeof value === "string" && !/password|code/i.test(key)) values[key] = value;
  }
  return values;
}

/**
 * PRG: a successful POST redirects, carrying the cookies the core set (session, challenge…); and the
 * request's headers with the cookies just set applied, for a second call in the same action. Both
 * from the core's Remix entry.
 */
export { redirectWithCookies as redirectWith } from "@tessera/auth-core/remix";
