import type { AuthOptions } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "../support/browser.ts";
import { type TestAuth, useFreshTestAuth } from "../support/test-auth.ts";

/**
 * Security-hardening finding 7 (docs/security.md, "Mail flooding"): reset, verification and
 * invitation mails could be sent to one address without limit, from as many clients and accounts
 * as an attacker had, and the invitation's subject carried the inviter's and organization's names
 * (a spam relay). Now at most 3 mails of one kind reach one address per 15 minutes (`mailLimit`);
 * past that the endpoint answers exactly as before, sends nothing, and logs a warning that names
 * the kind and a keyed hash of the address, never the address.
 */
let t: TestAuth | null = null;
const freshTestAuth = useFreshTestAuth();

const VICTIM = "victim@example.com";
const PASSWORD = "correct horse battery";

async function setUp(overrides: Omit<Partial<AuthOptions>, "database"> = {}) {
  const warnings: Array<[string, unknown]> = [];
  t = await freshTestAuth(
    {
      logger: {
        info: () => {},
        warn: (message, detail) => warnings.push([message, detail]),
        error: () => {},
      },
      ...overrides,
    },
    { frozen: true },
  );
  return { t, warnings };
}

const mailsTo = (test: TestAuth, email: string, kind: string) =>
  test.outbox.messages().filter((mail) => mail.to === email && mail.kind === kind);

/** A request from its own client address, as a flood from many clients would be. */
function fromClient(test: TestAuth, n: number, path: string, body: unknown) {
  return new TestBrowser(test.auth).post(path, body, { remoteAddress: `203.0.113.${n}` });
}

describe("mails to one address are limited per kind (finding 7)", () => {
  it("the 4th reset request in 15 minutes answers the same and sends no mail; the next window sends again", async () => {
    const { t, warnings } = await setUp();
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    const answers: unknown[] = [];
    for (let n = 1; n <= 4; n++) {
      const res = await fromClient(t, n, "/request-password-reset", { email: VICTIM });
      answers.push({ status: res.status, body: res.body });
    }
    const expected = {
      status: 200,
      body: {
        status: true,
        message: "If this email exists in our system, check your email for the reset link",
      },
    };
    expect(answers).toEqual([expected, expected, expected, expected]);
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(3);
    expect(await t.db.collection("mailLimits").countDocuments()).toBe(3);
    // The stored slots name the address by a keyed hash only.
    expect(JSON.stringify(await t.db.collection("mailLimits").find().toArray())).not.toContain("victim");
    expect(warnings).toEqual([
      ["mail not sent: too many to this address", { kind: "reset-password", recipient: expect.any(String) }],
    ]);
    expect(JSON.stringify(warnings)).not.toContain("victim");

    t.advance(15 * 60);
    expect((await fromClient(t, 5, "/request-password-reset", { email: VICTIM })).status).toBe(200);
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(4);
    // The ended window's slots are garbage for auth.cleanup().
    expect((await t.auth.cleanup()).mailLimits).toBe(3);
  });

  it("an address's case and spacing do not open a fresh allowance", async () => {
    const { t } = await setUp();
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    for (const [n, email] of [
      "victim@example.com",
      "VICTIM@example.com",
      " Victim@Example.com",
      "victim@EXAMPLE.com",
    ].entries())
      await fromClient(t, n, "/request-password-reset", { email });
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(3);
  });

  it("verification mails stop after 3, counting the sign-up's, and the answer stays the same", async () => {
    const { t } = await setUp({ emailAndPassword: { requireEmailVerification: true } });
    const signedUp = await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    expect(signedUp.status).toBe(200);
    expect(mailsTo(t, VICTIM, "verify-email")).toHaveLength(1);
    const answers: unknown[] = [];
    for (let n = 1; n <= 3; n++) {
      const res = await fromClient(t, n, "/send-verification-email", { email: VICTIM });
      answers.push({ status: res.status, body: res.body });
    }
    expect(answers).toEqual(Array(3).fill({ status: 200, body: { status: true } }));
    expect(mailsTo(t, VICTIM, "verify-email")).toHaveLength(3);
    // Another kind to the same address has its own allowance.
    await fromClient(t, 9, "/request-password-reset", { email: VICTIM });
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(1);
  });

  it("concurrent requests from many clients send at most 3 mails", async () => {
    const { t } = await setUp();
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, n) => fromClient(t, n, "/request-password-reset", { email: VICTIM })),
    );
    expect(results.map((res) => res.status)).toEqual(Array(12).fill(200));
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(3);
    expect(await t.db.collection("mailLimits").countDocuments()).toBe(3);
  });

  it("follows the mailLimit options: another max, and a kind left unlimited", async () => {
    const { t } = await setUp({ mailLimit: { max: 1, kinds: { "verify-email": false } } });
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    for (let n = 1; n <= 3; n++) {
      await fromClient(t, n, "/request-password-reset", { email: VICTIM });
      await fromClient(t, n, "/send-verification-email", { email: VICTIM });
    }
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(1);
    expect(mailsTo(t, VICTIM, "verify-email")).toHaveLength(3);
  });
});

describe("the limit reveals no account (finding 7 and C6)", () => {
  it("reset and verification requests cost the same commands for a known, a verified and an unknown address", async () => {
    const { t } = await setUp();
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    await signUp(new TestBrowser(t.auth), { email: "verified@example.com", password: PASSWORD });
    await t.db
      .collection("users")
      .updateOne({ email: "verified@example.com" }, { $set: { emailVerified: true } });
    const costOf = (path: string, email: string) => t.commands(() => fromClient(t, 1, path, { email }));
    const reset = await costOf("/request-password-reset", VICTIM);
    expect(reset).toEqual(["find:emailClaims", "find:users", "insert:verifications", "insert:mailLimits"]);
    expect(await costOf("/request-password-reset", "nobody@example.com")).toEqual(reset);
    const verify = await costOf("/send-verification-email", VICTIM);
    expect(verify).toEqual(["find:emailClaims", "find:users", "insert:mailLimits"]);
    expect(await costOf("/send-verification-email", "verified@example.com")).toEqual(verify);
    expect(await costOf("/send-verification-email", "nobody@example.com")).toEqual(verify);
    expect(t.outbox.messages().map((mail) => [mail.kind, mail.to])).toEqual([
      ["reset-password", VICTIM],
      ["verify-email", VICTIM],
    ]);
  });
});

describe("invitations are no spam relay (finding 7)", () => {
  it("invitations from many organizations reach one address 3 times, without their names in the subject", async () => {
    const { t } = await setUp();
    const spammer = new TestBrowser(t.auth);
    await signUp(spammer, { email: "spammer@example.com", password: PASSWORD, name: "Cheap Pills" });
    const answers: number[] = [];
    for (let n = 1; n <= 4; n++) {
      const organization = await spammer.post<{ id: string }>("/organization/create", {
        name: `BUY CHEAP PILLS at pills${n}.example`,
        slug: `pills-${n}`,
      });
      const invited = await spammer.post<{ email: string; status: string }>("/organization/invite-member", {
        organizationId: organization.body.id,
        email: VICTIM,
        role: "member",
      });
      answers.push(invited.status);
      expect(invited.body).toMatchObject({ email: VICTIM, status: "pending" });
    }
    expect(answers).toEqual([200, 200, 200, 200]);
    // The invitations exist (the answer did not change); only the fourth mail was not sent.
    expect(await t.db.collection("invitations").countDocuments({ email: VICTIM, status: "pending" })).toBe(4);
    const mails = mailsTo(t, VICTIM, "invitation");
    expect(mails).toHaveLength(3);
    for (const mail of mails) {
      expect(mail.subject).toBe("You have been invited to an organization on Tessera");
      expect(mail.text).toContain("Cheap Pills invited you to join BUY CHEAP PILLS at pills");
    }
  });
});
