import { type AuthOptions, createAuth, createSmtpMailer } from "@tessera/auth-core";
import { afterEach, describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { type FaultySmtp, startFaultySmtp } from "#test/faulty-smtp.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { PASSWORDLESS, passwordlessRows } from "#test/passwordless.ts";
import { TEST_ORIGIN, TEST_SECRET, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

const openAuth = useFreshTestAuth();
let smtp: FaultySmtp | null = null;
afterEach(async () => {
  await smtp?.close();
  smtp = null;
});

/** Mail through real SMTP; the worker driven by the test (runPass) so the fake clock decides. */
function mailOptions(url: string) {
  return {
    mailer: createSmtpMailer({ url, from: "Tessera <no-reply@example.com>", timeoutMs: 2000 }),
    mailQueue: { worker: false },
  };
}

/** A second instance on the first one's database and clock, as a second server would be. */
function openSecondInstance(t: TestAuth, url: string, overrides: Partial<AuthOptions> = {}) {
  return createAuth({
    database: t.db,
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    clock: t.now,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    rateLimit: { enabled: false },
    emailVerification: { sendOnSignUp: true },
    emailAndPassword: { enabled: true, resetPasswordTokenExpiresIn: 300 },
    ...PASSWORDLESS,
    ...mailOptions(url),
    ...overrides,
  });
}

const mailRows = (t: TestAuth) => t.db.collection("mails").find({}).sort({ createdAt: 1 }).toArray();

describe("mail outbox: SMTP down", () => {
  it("invite-member answers 200 while SMTP refuses connections, and the invitation arrives once when it is back", async () => {
    smtp = await startFaultySmtp();
    const t = await openAuth(mailOptions(smtp.url));
    const owner = await signIn(t, "owner");
    const organizationId = await createOrganization(owner, "acme");
    await smtp.goDown();

    const res = await owner.browser.post("/organization/invite-member", {
      organizationId,
      email: "guest@example.com",
      role: "member",
    });
    expect(res.status).toBe(200);
    await t.auth.mail.settle();
    const [queued] = (await mailRows(t)).filter((row) => row.kind === "invitation");
    expect(queued).toMatchObject({ state: "queued", attempts: 1, to: "guest@example.com" });
    expect(queued?.lastError).toContain("ECONNREFUSED");
    expect(await t.db.collection("invitations").countDocuments({ email: "guest@example.com" })).toBe(1);

    await smtp.comeBack();
    t.advance(20);
    await t.auth.mail.runPass();
    await t.auth.mail.settle();
    expect(smtp.receivedBy("guest@example.com").map((mail) => mail.subject)).toHaveLength(1);
    const [sent] = (await mailRows(t)).filter((row) => row.kind === "invitation");
    expect(sent).toMatchObject({ state: "sent", attempts: 2, text: null, html: null, subject: null });
  });

  it("a 10-minute outage on two instances: each mail whose token lives arrives exactly once, expired ones are dropped, no 5xx", async () => {
    smtp = await startFaultySmtp();
    const overrides = {
      ...mailOptions(smtp.url),
      emailVerification: { sendOnSignUp: true },
      emailAndPassword: { enabled: true, resetPasswordTokenExpiresIn: 300 },
      ...PASSWORDLESS,
    };
    const t = await openAuth(overrides);
    const second = openSecondInstance(t, smtp.url);
    try {
      const owner = await signIn(t, "owner");
      const organizationId = await createOrganization(owner, "acme");
      await t.auth.mail.settle();
      const beforeOutage = smtp.received.length;
      await smtp.goDown();
      const instances = [t.auth, second];
      const statuses: number[] = [];
      for (let n = 0; n < 6; n++) {
        const auth = instances[n % 2]!;
        const browser = new TestBrowser(auth);
        const signedUp = await browser.post("/sign-up/email", {
          name: `User ${n}`,
          email: `user${n}@example.com`,
          password: "correct horse battery",
        });
        const reset = await new TestBrowser(auth).post("/request-password-reset", {
          email: `user${n}@example.com`,
        });
        statuses.push(signedUp.status, reset.status);
      }
      for (let n = 0; n < 4; n++) {
        const res = await owner.browser.post("/organization/invite-member", {
          organizationId,
          email: `guest${n}@example.com`,
          role: "member",
        });
        statuses.push(res.status);
      }
      expect(statuses.every((status) => status === 200)).toBe(true);
      // Sign-in links live minutes: not queued, answered 503, and nothing usable left behind.
      for (const auth of instances) {
        const res = await new TestBrowser(auth).post("/sign-in/magic-link", { email: "user0@example.com" });
        expect({ status: res.status, code: (res.body as { code: string }).code }).toEqual({
          status: 503,
          code: "MAIL_UNAVAILABLE",
        });
      }
      expect(await passwordlessRows(t)).toEqual([]);
      await Promise.all([t.auth.mail.settle(), second.mail.settle()]);

      // Ten minutes of refused connections, both instances' workers passing every 15 s.
      for (let elapsed = 0; elapsed < 600; elapsed += 15) {
        t.advance(15);
        await Promise.all([t.auth.mail.runPass(), second.mail.runPass()]);
      }
      expect(smtp.received).toHaveLength(beforeOutage);
      await smtp.comeBack();
      for (let elapsed = 0; elapsed < 330; elapsed += 15) {
        t.advance(15);
        await Promise.all([t.auth.mail.runPass(), second.mail.runPass()]);
      }
      await Promise.all([t.auth.mail.settle(), second.mail.settle()]);

      const rows = await mailRows(t);
      const byKind = (kind: string) => rows.filter((row) => row.kind === kind);
      // The owner's own sign-up mail went out before the outage; six more were queued during it.
      expect(byKind("verify-email")).toHaveLength(7);
      expect(byKind("invitation")).toHaveLength(4);
      expect(byKind("reset-password")).toHaveLength(6);
      for (const row of [...byKind("verify-email"), ...byKind("invitation")]) expect(row.state).toBe("sent");
      // Reset links live 5 minutes here: expired before the server came back, dropped, never sent.
      for (const row of byKind("reset-password")) expect(row).toMatchObject({ state: "dropped", text: null });
      const counts = smtp.countByMessageId();
      expect([...counts.values()].every((count) => count === 1)).toBe(true);
      expect(counts.size).toBe(11);
      // Backoff, not a storm: 15 s doubling to 5 min over ~15 minutes is at most 7 attempts each.
      expect(Math.max(...rows.map((row) => row.attempts))).toBeLessThanOrEqual(7);
    } finally {
      await second.close();
    }
  });

  it("a mail held by an instance that died is taken over when its lease ends, and sent once", async () => {
    smtp = await startFaultySmtp();
    const t = await openAuth(mailOptions(smtp.url));
    // The dying instance: its mailer never answers, so its first attempt never records anything.
    const dying = openSecondInstance(t, smtp.url, { mailer: { send: () => new Promise<void>(() => {}) } });
    const owner = await signIn(t, "owner");
    const organizationId = await createOrganization(owner, "acme");
    const res = await new TestBrowser(dying, TEST_ORIGIN).request("POST", "/organization/invite-member", {
      body: { organizationId, email: "late@example.com", role: "member" },
      headers: { cookie: owner.browser.cookieHeader() },
    });
    expect(res.status).toBe(200);

    await t.auth.mail.runPass();
    expect(smtp.received).toHaveLength(0);
    t.advance(61);
    await Promise.all([t.auth.mail.runPass(), t.auth.mail.runPass()]);
    await t.auth.mail.settle();
    expect(smtp.receivedBy("late@example.com")).toHaveLength(1);
    const [row] = (await mailRows(t)).filter((mail) => mail.kind === "invitation");
    expect(row).toMatchObject({ state: "sent", claims: 1 });
  });
});
