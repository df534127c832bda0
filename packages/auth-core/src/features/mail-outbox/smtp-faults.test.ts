import { createSmtpMailer } from "@tessera/auth-core";
import { afterEach, describe, expect, it } from "vitest";
import { type FaultySmtp, startFaultySmtp } from "#test/faulty-smtp.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";

const openAuth = useFreshTestAuth();
let smtp: FaultySmtp | null = null;
afterEach(async () => {
  await smtp?.close();
  smtp = null;
});

/** `timeoutMs`: the SMTP timeout (10 s in production), shortened where the test waits for it. */
async function openWithSmtp(url: string, timeoutMs: number) {
  const t = await openAuth({
    mailer: createSmtpMailer({ url, from: "Tessera <no-reply@example.com>", timeoutMs }),
    mailQueue: { worker: false },
  });
  const owner = await signIn(t, "owner");
  const organizationId = await createOrganization(owner, "acme");
  const invite = (email: string) =>
    owner.browser.post("/organization/invite-member", { organizationId, email, role: "member" });
  return { t, invite };
}

describe("mail outbox: a slow or refusing SMTP server", () => {
  it("a server slower than the timeout: attempts follow the backoff, one per due time, not one per pass", async () => {
    smtp = await startFaultySmtp();
    const { t, invite } = await openWithSmtp(smtp.url, 500);
    smtp.greetAfter(3000);
    const before = smtp.connections();
    expect((await invite("slow@example.com")).status).toBe(200);
    await t.auth.mail.settle();
    // 60 passes over 2 minutes: the retries are due at +15 s, +45 s, +105 s (then +225 s).
    for (let pass = 0; pass < 60; pass++) {
      t.advance(2);
      await t.auth.mail.runPass();
      await t.auth.mail.settle();
    }
    const row = await t.db.collection("mails").findOne({ to: "slow@example.com" });
    expect(row).toMatchObject({ state: "queued", attempts: 4 });
    // The greeting's timer and the socket's idle timer both start at the connection and both last
    // `timeoutMs` (mail/smtp.ts): which fires first is up to the machine's load (a loaded run once
    // recorded "ETIMEDOUT: Timeout"). Either is the server's silence, kept as a timeout.
    expect(row?.lastError).toMatch(/^ETIMEDOUT: (Greeting never received|Timeout)$/);
    expect(smtp.connections() - before).toBe(4);
    expect(smtp.receivedBy("slow@example.com")).toHaveLength(0);
  });

  it("a recipient refused with 550 is marked failed with the server's answer and not tried again", async () => {
    smtp = await startFaultySmtp();
    const { t, invite } = await openWithSmtp(smtp.url, 10_000);
    smtp.rejectRecipient("nobody@example.com", "5.1.1 No such mailbox here");
    expect((await invite("nobody@example.com")).status).toBe(200);
    expect((await invite("guest@example.com")).status).toBe(200);
    await t.auth.mail.settle();
    for (let pass = 0; pass < 10; pass++) {
      t.advance(60);
      await t.auth.mail.runPass();
      await t.auth.mail.settle();
    }
    const refused = await t.db.collection("mails").findOne({ to: "nobody@example.com" });
    expect(refused).toMatchObject({ state: "failed", attempts: 1, nextAttemptAt: null });
    expect(refused?.lastError).toBe("550 5.1.1 No such mailbox here");
    const delivered = await t.db.collection("mails").findOne({ to: "guest@example.com" });
    expect(delivered).toMatchObject({ state: "sent", attempts: 1 });
    expect(smtp.receivedBy("guest@example.com")).toHaveLength(1);
  });
});
