import { describe, expect, it } from "vitest";
import { chooseMailDelivery } from "./delivery-setting.ts";

const SMTP = "smtp://user:pass@mail.example.com:587";
const NO_SMTP_IN_PRODUCTION =
  "SMTP_URL must be set in production (smtp://user:pass@host:587 or smtps://…:465): without it " +
  "no verification, password reset or invitation mail reaches anyone. To run without mail " +
  "on purpose, set TESSERA_MAIL=disabled.";

describe("how an app's mails leave it (the demo's and the created app's start)", () => {
  it.each([
    ["development, nothing set: the dev outbox", undefined, undefined, false, { delivery: "outbox" }],
    ["development with SMTP_URL: SMTP", undefined, SMTP, false, { delivery: "smtp" }],
    ["production with SMTP_URL: SMTP", undefined, SMTP, true, { delivery: "smtp" }],
    ["production without SMTP_URL: refused", undefined, undefined, true, { refusal: NO_SMTP_IN_PRODUCTION }],
    ["production with a blank SMTP_URL: refused", undefined, "  ", true, { refusal: NO_SMTP_IN_PRODUCTION }],
    ["TESSERA_MAIL=disabled in production: nowhere", "disabled", undefined, true, { delivery: "disabled" }],
    ["TESSERA_MAIL=disabled wins over SMTP_URL", " disabled ", SMTP, true, { delivery: "disabled" }],
    ["TESSERA_MAIL=disabled in development: nowhere", "disabled", undefined, false, { delivery: "disabled" }],
    [
      "an unknown TESSERA_MAIL: refused, named",
      "off",
      SMTP,
      false,
      { refusal: 'TESSERA_MAIL must be unset or "disabled", not "off"' },
    ],
  ] as const)("%s", (_name, mail, smtpUrl, isProduction, expected) => {
    expect(chooseMailDelivery({ mail, smtpUrl, isProduction })).toEqual(expected);
  });
});
