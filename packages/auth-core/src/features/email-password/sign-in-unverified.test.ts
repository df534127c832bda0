import type { AuthOptions } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * Review finding s9-5 (docs/decisions/ "Email not verified", 403): the link mailed with the refusal goes out
 * only while verification mails are on (emailVerification.enabled and sendOnSignIn), and the 403
 * never depends on the mailer.
 */
const ADA = "ada@example.com";
const PASSWORD = "correct horse battery";
const NOT_VERIFIED = { code: "EMAIL_NOT_VERIFIED", message: "Email not verified" };

const { t, openAuth } = useTestAuthPerTest();

async function setUp(overrides: Omit<Partial<AuthOptions>, "database"> = {}) {
  await openAuth({ emailAndPassword: { requireEmailVerification: true }, ...overrides });
  expect((await signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD })).status).toBe(200);
}

async function signInUnverified() {
  const browser = new TestBrowser(t.auth);
  const res = await browser.post("/sign-in/email", { email: ADA, password: PASSWORD });
  expect(res.status).toBe(403);
  expect(res.body).toEqual(NOT_VERIFIED);
  expect(browser.cookies.size).toBe(0);
  expect(await t.db.collection("sessions").countDocuments()).toBe(0);
}

const mailsToAda = () => t.outbox.messages().filter((mail) => mail.to === ADA);

describe("sign-in of an unverified address (requireEmailVerification)", () => {
  it("with verification mails disabled: 403, and no mail is sent", async () => {
    await setUp({ emailVerification: { enabled: false } });
    expect(mailsToAda()).toHaveLength(0);
    await signInUnverified();
    expect(mailsToAda()).toHaveLength(0);
  });

  it("with sendOnSignIn off: 403, and no mail is sent", async () => {
    await setUp({ emailVerification: { sendOnSignIn: false } });
    const before = mailsToAda().length;
    await signInUnverified();
    expect(mailsToAda()).toHaveLength(before);
  });

  it("with verification mails on: 403, and a fresh verification link is mailed", async () => {
    await setUp();
    const before = mailsToAda().length;
    await signInUnverified();
    expect(mailsToAda()).toHaveLength(before + 1);
    expect(mailsToAda().at(-1)?.kind).toBe("verify-email");
    expect(mailsToAda().at(-1)?.text).toMatch(/\/api\/auth\/verify-email\?token=/);
  });

  it("a failing mail hook still answers the 403 (not a 5xx) and the failure is logged", async () => {
    const logged: unknown[][] = [];
    const sent: string[] = [];
    await setUp({
      logger: { info: () => {}, warn: () => {}, error: (...args: unknown[]) => logged.push(args) },
      mail: {
        sendVerificationEmail: ({ user }) => {
          sent.push(user.email);
          throw new Error("smtp down");
        },
      },
    });
    const errorsBefore = logged.length;
    await signInUnverified();
    expect(sent.filter((to) => to === ADA).length).toBeGreaterThanOrEqual(2); // sign-up and sign-in
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(logged.length).toBe(errorsBefore + 1);
    expect(String(logged.at(-1)?.[0])).toMatch(/verification email could not be sent/);
  });

  it("a failing mailer still answers the 403 (not a 5xx)", async () => {
    const failing = {
      send: async () => {
        throw new Error("smtp down");
      },
    };
    await setUp({ mailer: failing });
    await signInUnverified();
  });
});
