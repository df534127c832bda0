import { createSmtpMailer } from "@tessera/auth-core";
import { afterEach, describe, expect, it } from "vitest";
import { createCast, FORBIDDEN } from "#test/admin.ts";
import { type FaultySmtp, startFaultySmtp } from "#test/faulty-smtp.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";

const openAuth = useFreshTestAuth();
let smtp: FaultySmtp | null = null;
afterEach(async () => {
  await smtp?.close();
  smtp = null;
});

async function openWithSmtp() {
  smtp = await startFaultySmtp();
  const t = await openAuth({
    mailer: createSmtpMailer({ url: smtp.url, from: "Tessera <no-reply@example.com>" }),
    mailQueue: { worker: false },
  });
  return { t, smtp };
}

describe("mail states shown to the people who rely on them", () => {
  it("list-invitations shows each invitation's mail as queued, failed or sent", async () => {
    const { t, smtp } = await openWithSmtp();
    const owner = await signIn(t, "owner");
    const organizationId = await createOrganization(owner, "acme");
    const invite = (email: string) =>
      owner.browser.post("/organization/invite-member", { organizationId, email, role: "member" });
    smtp.rejectRecipient("gone@example.com", "5.1.1 No such mailbox");
    await invite("gone@example.com");
    await t.auth.mail.settle();
    await smtp.goDown();
    await invite("later@example.com");
    await t.auth.mail.settle();
    const states = async () => {
      const res = await owner.browser.get<{ email: string; mailState: string | null }[]>(
        `/organization/list-invitations?organizationId=${organizationId}`,
      );
      expect(res.status).toBe(200);
      return Object.fromEntries(res.body.map((row) => [row.email, row.mailState]));
    };
    expect(await states()).toEqual({ "gone@example.com": "failed", "later@example.com": "queued" });
    await smtp.comeBack();
    t.advance(20);
    await t.auth.mail.runPass();
    await t.auth.mail.settle();
    expect(await states()).toEqual({ "gone@example.com": "failed", "later@example.com": "sent" });
  });

  it("an admin lists a user's recent mails without bodies; a non-admin is refused", async () => {
    const { t } = await openWithSmtp();
    const { admin, user } = await createCast(t);
    expect((await user.browser.post("/request-password-reset", { email: user.email })).status).toBe(200);
    await t.auth.mail.settle();
    const res = await admin.browser.post<{ mails: Record<string, unknown>[] }>("/admin/list-user-mails", {
      userId: user.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.mails).toHaveLength(1);
    expect(res.body.mails[0]).toMatchObject({
      kind: "reset-password",
      to: user.email,
      state: "sent",
      attempts: 1,
    });
    expect(Object.keys(res.body.mails[0]!).sort()).toEqual(
      [
        "attempts",
        "createdAt",
        "expiresAt",
        "id",
        "kind",
        "lastError",
        "nextAttemptAt",
        "sentAt",
        "state",
        "to",
      ].sort(),
    );
    const refused = await user.browser.post("/admin/list-user-mails", { userId: user.id });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: FORBIDDEN });
  });
});
