import { describe, expect, it } from "vitest";
import { createOrganization, signIn } from "#test/organization.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";

const openAuth = useFreshTestAuth();

describe("mail outbox retention (docs/security.md 'Mail outbox')", () => {
  it("cleanup empties the body of a mail whose link expired, and removes its row after mailQueue.keepDays", async () => {
    const t = await openAuth({
      mailer: { send: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:25")) },
      mailQueue: { worker: false, keepDays: 14 },
    });
    const owner = await signIn(t, "owner");
    const organizationId = await createOrganization(owner, "acme");
    await owner.browser.post("/organization/invite-member", {
      organizationId,
      email: "guest@example.com",
      role: "member",
    });
    await t.auth.mail.settle();
    const mails = t.db.collection("mails");
    expect(await mails.findOne({ to: "guest@example.com" })).toMatchObject({ state: "queued" });
    expect((await mails.findOne({ to: "guest@example.com" }))?.text).toContain("/accept-invitation/");

    t.advance(49 * 3600); // past the invitation's 48 hours
    expect((await t.auth.cleanup()).mails).toBe(0);
    expect(await mails.findOne({ to: "guest@example.com" })).toMatchObject({
      text: null,
      html: null,
      subject: null,
    });
    await t.auth.mail.runPass();
    await t.auth.mail.settle();
    expect(await mails.findOne({ to: "guest@example.com" })).toMatchObject({ state: "dropped" });

    t.advance(14 * 86_400);
    expect((await t.auth.cleanup()).mails).toBe(1);
    expect(await mails.countDocuments({ to: "guest@example.com" })).toBe(0);
  });
});
