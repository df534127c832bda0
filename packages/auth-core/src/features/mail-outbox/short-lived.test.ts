import { createSmtpMailer } from "@tessera/auth-core";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import { type FaultySmtp, startFaultySmtp } from "#test/faulty-smtp.ts";
import { PASSWORDLESS } from "#test/passwordless.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";
import { challengedBrowser, useTwoFactorFixtures } from "#test/two-factor.ts";

const openAuth = useFreshTestAuth();
const twoFactor = useTwoFactorFixtures();
let smtp: FaultySmtp | null = null;
afterEach(async () => {
  await smtp?.close();
  smtp = null;
});

const MAIL_UNAVAILABLE = {
  code: "MAIL_UNAVAILABLE",
  message: "The email could not be sent right now. Please try again in a few minutes.",
};

/** The SMTP server takes the mail in and then answers 451: the secret reached a mailbox, the sender saw a failure. */
async function startHalfFailingSmtp() {
  smtp = await startFaultySmtp();
  smtp.failAfterData(true);
  return {
    smtp,
    mailer: createSmtpMailer({ url: smtp.url, from: "Tessera <no-reply@example.com>" }),
  };
}

function lastText(sink: FaultySmtp): string {
  const text = sink.received.at(-1)?.text;
  if (!text) throw new Error("no mail received");
  return text;
}

describe("short-lived secrets when mail cannot be sent", () => {
  it("a magic link and sign-in code that could not be mailed answer 503 MAIL_UNAVAILABLE and neither signs in", async () => {
    const { smtp, mailer } = await startHalfFailingSmtp();
    const t = await openAuth({ ...PASSWORDLESS, mailer, mailQueue: { worker: false } });
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/sign-in/magic-link", { email: "ada@example.com" });
    expect({ status: res.status, body: res.body }).toEqual({ status: 503, body: MAIL_UNAVAILABLE });
    const text = lastText(smtp);
    const link = text.match(/https?:\/\/\S*\/magic-link\/verify\?\S+/)?.[0];
    const code = text.match(/^\s*(\d{6})\s*$/m)?.[1];
    expect(link && code).toBeTruthy();

    const token = new URL(link!).searchParams.get("token");
    const byLink = await browser.post("/magic-link/verify", { token });
    expect(byLink.status).toBe(400);
    const byCode = await browser.post("/sign-in/email-otp", { email: "ada@example.com", otp: code });
    expect(byCode.status).toBeGreaterThanOrEqual(400);
    expect(byCode.status).toBeLessThan(500);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
    // Nothing was queued: a code valid for minutes is not retried behind the user's back.
    expect(await t.db.collection("mails").countDocuments()).toBe(0);

    smtp.failAfterData(false);
    const again = await browser.post("/sign-in/magic-link", { email: "ada@example.com" });
    expect(again.status).toBe(200);
    const fresh = lastText(smtp).match(/https?:\/\/\S*\/magic-link\/verify\?\S+/)?.[0];
    const signedIn = await browser.post("/magic-link/verify", {
      token: new URL(fresh!).searchParams.get("token"),
    });
    expect(signedIn.status).toBe(200);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
  });

  it("a two-factor code that could not be mailed answers 503 MAIL_UNAVAILABLE and does not complete the sign-in", async () => {
    const { smtp, mailer } = await startHalfFailingSmtp();
    const { t } = await twoFactor.enrolled({ mailer, mailQueue: { worker: false } });
    const browser = await challengedBrowser(t);
    const sent = await browser.post("/two-factor/send-otp", {});
    expect({ status: sent.status, body: sent.body }).toEqual({ status: 503, body: MAIL_UNAVAILABLE });
    const code = /\b(\d{6})\b/.exec(lastText(smtp))?.[1];
    expect(code).toBeDefined();
    const res = await browser.post("/two-factor/verify-otp", { code });
    expect(res.status).toBe(401);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });
});
