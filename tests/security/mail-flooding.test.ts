import type { AuthOptions } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * docs/security.md "Mail flooding": reset, verification and
 * invitation mails could be sent to one address without limit, from as many clients and accounts
 * as an attacker had, and the invitation's subject carried the inviter's and organization's names
 * (a spam relay). Now, per kind and 15 minutes (`mailLimit`), at most 3 mails reach one mailbox from
 * one sender (a client address, an account, an inviting organization) and at most 10 from all senders
 * together (one sender must not use up another's allowance); past that the endpoint
 * answers exactly as before, sends nothing, and logs a warning that names the kind and keyed hashes,
 * never the address.
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

describe("mails to one address are limited per kind", () => {
  it("the 4th reset request from one client in 15 minutes answers the same and sends no mail; the next window sends again", async () => {
    const { t, warnings } = await setUp();
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    const answers: unknown[] = [];
    for (let n = 1; n <= 4; n++) {
      const res = await fromClient(t, 1, "/request-password-reset", { email: VICTIM });
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
    // Three slots of the client's allowance for the address, three of the address's.
    expect(await t.db.collection("mailLimits").countDocuments()).toBe(6);
    // The stored slots name the address and the client by keyed hashes only.
    const stored = JSON.stringify(await t.db.collection("mailLimits").find().toArray());
    expect(stored).not.toContain("victim");
    expect(stored).not.toContain("203.0.113");
    expect(warnings).toEqual([
      [
        "mail not sent: too many from this sender to this address",
        { kind: "reset-password", recipient: expect.any(String), sender: expect.any(String) },
      ],
    ]);
    expect(JSON.stringify(warnings)).not.toContain("victim");
    // The refused request stored what an unknown address's does: a mail row never sent and a token
    // that opens nothing, in the same commands as the three mailed ones (docs/architecture.md "Mail").
    const liveTokens = await t.db
      .collection("verifications")
      .countDocuments({ identifier: { $regex: "^reset-password:" }, value: { $ne: "" } });
    expect(liveTokens).toBe(3);
    expect(await t.db.collection("mails").countDocuments({ kind: "reset-password", to: "" })).toBe(1);

    t.advance(15 * 60);
    expect((await fromClient(t, 1, "/request-password-reset", { email: VICTIM })).status).toBe(200);
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(4);
    // The ended window's slots are garbage for auth.cleanup().
    expect((await t.auth.cleanup()).mailLimits).toBe(6);
  });

  it("an address's case, spacing and +tag do not open a fresh allowance", async () => {
    const { t } = await setUp();
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    for (const email of [
      "victim@example.com",
      "VICTIM@example.com",
      "victim+1@example.com",
      " Victim@Example.com",
      "victim@EXAMPLE.com",
    ])
      await fromClient(t, 1, "/request-password-reset", { email });
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(2);
  });

  it("verification mails from one client stop after 3, counting the sign-up's, and the answer stays the same", async () => {
    const { t } = await setUp({ emailAndPassword: { requireEmailVerification: true } });
    const signedUp = await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    expect(signedUp.status).toBe(200);
    expect(mailsTo(t, VICTIM, "verify-email")).toHaveLength(1);
    const answers: unknown[] = [];
    for (let n = 1; n <= 3; n++) {
      const res = await new TestBrowser(t.auth).post("/send-verification-email", { email: VICTIM });
      answers.push({ status: res.status, body: res.body });
    }
    expect(answers).toEqual(Array(3).fill({ status: 200, body: { status: true } }));
    expect(mailsTo(t, VICTIM, "verify-email")).toHaveLength(3);
    // Another client has an allowance of its own; another kind too.
    await fromClient(t, 9, "/send-verification-email", { email: VICTIM });
    expect(mailsTo(t, VICTIM, "verify-email")).toHaveLength(4);
    await fromClient(t, 9, "/request-password-reset", { email: VICTIM });
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(1);
  });

  it("concurrent requests send at most 3 mails from one client, and at most 10 from many", async () => {
    const { t } = await setUp();
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    const oneClient = await Promise.all(
      Array.from({ length: 12 }, () => fromClient(t, 1, "/request-password-reset", { email: VICTIM })),
    );
    expect(oneClient.map((res) => res.status)).toEqual(Array(12).fill(200));
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(3);
    const manyClients = await Promise.all(
      Array.from({ length: 16 }, (_, n) =>
        fromClient(t, n + 2, "/request-password-reset", { email: VICTIM }),
      ),
    );
    expect(manyClients.map((res) => res.status)).toEqual(Array(16).fill(200));
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(10);
    // The address's 10 slots; the 3 + 7 clients' own that were sent (refused ones are given back).
    expect(await t.db.collection("mailLimits").countDocuments()).toBe(20);
  });

  it("follows the mailLimit options: another max, and a kind left unlimited", async () => {
    const { t } = await setUp({ mailLimit: { max: 1, kinds: { "verify-email": false } } });
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    for (let n = 1; n <= 3; n++) {
      await fromClient(t, 1, "/request-password-reset", { email: VICTIM });
      await fromClient(t, 1, "/send-verification-email", { email: VICTIM });
    }
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(1);
    expect(mailsTo(t, VICTIM, "verify-email")).toHaveLength(3);
  });

  it("follows recipientMax: the address's total from all clients", async () => {
    const { t } = await setUp({ mailLimit: { recipientMax: 4 } });
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    for (let n = 1; n <= 6; n++) await fromClient(t, n, "/request-password-reset", { email: VICTIM });
    expect(mailsTo(t, VICTIM, "reset-password")).toHaveLength(4);
  });
});

describe("the limit reveals no account", () => {
  it("reset and verification requests cost the same commands for a known, a verified and an unknown address", async () => {
    const { t } = await setUp();
    await signUp(new TestBrowser(t.auth), { email: VICTIM, password: PASSWORD });
    await signUp(new TestBrowser(t.auth), { email: "verified@example.com", password: PASSWORD });
    await t.db
      .collection("users")
      .updateOne({ email: "verified@example.com" }, { $set: { emailVerified: true } });
    const costOf = (path: string, email: string) => t.commands(() => fromClient(t, 1, path, { email }));
    const reset = await costOf("/request-password-reset", VICTIM);
    expect(reset).toEqual([
      "find:users",
      "insert:mailLimits",
      "insert:mailLimits",
      "insert:mails",
      "insert:verifications",
    ]);
    expect(await costOf("/request-password-reset", "nobody@example.com")).toEqual(reset);
    const verify = await costOf("/send-verification-email", VICTIM);
    expect(verify).toEqual(["find:users", "insert:mailLimits", "insert:mailLimits"]);
    expect(await costOf("/send-verification-email", "verified@example.com")).toEqual(verify);
    expect(await costOf("/send-verification-email", "nobody@example.com")).toEqual(verify);
    expect(t.outbox.messages().map((mail) => [mail.kind, mail.to])).toEqual([
      ["reset-password", VICTIM],
      ["verify-email", VICTIM],
    ]);
  });
});

describe("invitations are no spam relay", () => {
  it("invitations from many organizations reach one address 10 times, without their names in the subject", async () => {
    const { t } = await setUp();
    const spammer = new TestBrowser(t.auth);
    await signUp(spammer, { email: "spammer@example.com", password: PASSWORD, name: "Cheap Pills" });
    const answers: Array<[number, boolean]> = [];
    for (let n = 1; n <= 11; n++) {
      const organization = await spammer.post<{ id: string }>("/organization/create", {
        name: `BUY CHEAP PILLS at pills${n}.example`,
        slug: `pills-${n}`,
      });
      const invited = await spammer.post<{ email: string; status: string; emailSent: boolean }>(
        "/organization/invite-member",
        { organizationId: organization.body.id, email: VICTIM, role: "member" },
      );
      answers.push([invited.status, invited.body.emailSent]);
      expect(invited.body).toMatchObject({ email: VICTIM, status: "pending" });
    }
    // Each organization has an allowance of its own; the address's total holds them all to 10.
    expect(answers).toEqual([...Array(10).fill([200, true]), [200, false]]);
    // The invitations exist; only the eleventh mail was not sent, and its inviter was told.
    expect(await t.db.collection("invitations").countDocuments({ email: VICTIM, status: "pending" })).toBe(
      11,
    );
    const mails = mailsTo(t, VICTIM, "invitation");
    expect(mails).toHaveLength(10);
    for (const mail of mails) {
      expect(mail.subject).toBe("You have been invited to an organization on Tessera");
      expect(mail.text).toContain("Cheap Pills invited you to join BUY CHEAP PILLS at pills");
    }
  });
});
