import { describe, expect, it } from "vitest";
import { createCast, FORBIDDEN } from "#test/admin.ts";
import { inviteFailedAndQueued, useOutboxSmtp } from "#test/mail-outbox.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";

const openWithSmtp = useOutboxSmtp(useFreshTestAuth());

describe("mail states shown to the people who rely on them", () => {
  it("list-invitations shows each invitation's mail as queued, failed or sent", async () => {
    const { t, smtp } = await openWithSmtp();
    const { owner, organizationId } = await inviteFailedAndQueued(t, smtp);
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
