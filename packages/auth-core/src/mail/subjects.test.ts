import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../i18n/languages.ts";
import type { MailKind } from "./mailer.ts";
import { renderMail } from "./templates/index.ts";
import type { MailDataByKind } from "./templates/types.ts";

/**
 * docs/security.md "Mail flooding": no subject, in any kind or
 * language, carries text a user chose — names, addresses, roles. Each such field is given a marker
 * here; the subject may hold the operator's app name only.
 */
const MARK = "USERTEXT";
const url = "https://acme.test/link";
const DATA: { [K in MailKind]: MailDataByKind[K] } = {
  "verify-email": { url, name: `${MARK}-name`, appName: "Acme" },
  "reset-password": { url, name: `${MARK}-name`, appName: "Acme", expiresInMinutes: 60 },
  "change-email": { url, newEmail: `${MARK}@example.com`, appName: "Acme" },
  "email-changed": { newEmail: `${MARK}@example.com`, appName: "Acme" },
  "api-keys-revoked": { count: 2, appName: "Acme" },
  "webhook-endpoint-disabled": { endpoint: url, appName: "Acme" },
  "delete-account": { url, appName: "Acme", expiresInHours: 24 },
  invitation: {
    url,
    organizationName: `${MARK}-organization`,
    inviterName: `${MARK}-inviter`,
    role: `${MARK}-role`,
    appName: "Acme",
  },
  "two-factor-otp": { code: "123456", appName: "Acme", expiresInMinutes: 3 },
  "sign-in-link": { url, code: "123456", appName: "Acme", expiresInMinutes: 5 },
  "email-otp": { code: "123456", purpose: "forget-password", appName: "Acme", expiresInMinutes: 5 },
};

describe("mail subjects", () => {
  for (const language of LANGUAGES) {
    it(`carry no user-chosen text in ${language}`, () => {
      for (const kind of Object.keys(DATA) as MailKind[]) {
        const mail = renderMail(kind, language, DATA[kind] as never);
        expect(mail.subject, kind).not.toContain(MARK);
        expect(mail.subject, kind).not.toContain("123456");
        expect(mail.subject, kind).toContain("Acme");
      }
    });
  }
});
