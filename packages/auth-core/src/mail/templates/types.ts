import type { MailKind } from "../mailer.ts";

/** What each template needs; `appName` names the product in subjects and bodies. */
export interface MailDataByKind {
  "verify-email": { url: string; name?: string; appName: string };
  "reset-password": { url: string; name?: string; appName: string; expiresInMinutes: number };
  "change-email": { url: string; newEmail: string; appName: string };
  /** `newEmail` only when the replaced address was verified: an unproven one may belong to a stranger. */
  "email-changed": { newEmail?: string | undefined; appName: string };
  /** To the owner of API keys that signing out everywhere deleted (features/sign-out-everywhere.ts). */
  "api-keys-revoked": { count: number; appName: string };
  /** To the owners of a webhook endpoint disabled after five days of failures (features/webhooks). */
  "webhook-endpoint-disabled": { endpoint: string; appName: string };
  "delete-account": { url: string; appName: string; expiresInHours: number };
  invitation: { url: string; organizationName: string; inviterName: string; role: string; appName: string };
  "two-factor-otp": { code: string; appName: string; expiresInMinutes: number };
  /** A passwordless sign-in (features/passwordless): the link, the code, or both (at least one). */
  "sign-in-link": { url?: string; code?: string; appName: string; expiresInMinutes: number };
  /** A mailed code that verifies the address or resets the password (features/passwordless). */
  "email-otp": {
    code: string;
    purpose: "email-verification" | "forget-password";
    appName: string;
    expiresInMinutes: number;
  };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * A mail body as plain data. Templates return this and `layout.ts` turns it into text and HTML, so the
 * escaping happens in one place and a translation cannot forget it.
 */
export type MailBlock =
  | { type: "greeting"; text: string }
  | { type: "paragraph"; text: string }
  | { type: "link"; label: string; url: string }
  | { type: "code"; code: string };

export interface MailContent {
  subject: string;
  blocks: MailBlock[];
}

/**
 * The forms of one counted phrase by `Intl.PluralRules` category; `#` stands for the number.
 * `other` is always needed (fractions such as 1.5 hours select it in most languages).
 */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/**
 * One language's templates. `htmlLang` is the BCP 47 tag written on the HTML document and given to
 * `Intl.PluralRules`; `plurals` lists every counted phrase the templates use, so a test can check that
 * each has every form the language needs.
 */
export interface MailTemplates {
  htmlLang: string;
  plurals: Record<string, PluralForms>;
  kinds: { [K in MailKind]: (data: MailDataByKind[K]) => MailContent };
}
