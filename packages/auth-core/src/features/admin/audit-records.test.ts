import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { auditEvents, sessionCount, signIn, useAdminCast, userDoc } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

/** Review finding 8: the admin changes that were missing from the audit log, with the database checked. */
const { t, admin, user } = useAdminCast();

const oid = (id: string) => new ObjectId(id);

describe("admin changes to users and sessions are recorded in the audit log", () => {
  it("update-user records the email move (old and new) and emailVerified", async () => {
    const res = await admin.browser.post("/admin/update-user", {
      userId: user.id,
      data: { email: "moved@example.com", emailVerified: true },
    });
    expect(res.status).toBe(200);
    expect(await userDoc(t, user.id)).toMatchObject({ email: "moved@example.com", emailVerified: true });
    const [event] = await auditEvents(t, { action: "user.update" });
    expect(event).toMatchObject({
      actorId: oid(admin.id),
      subjectId: oid(user.id),
      details: {
        fields: ["email", "emailVerified"],
        fromEmail: user.email,
        toEmail: "moved@example.com",
        fromEmailVerified: false,
        toEmailVerified: true,
      },
    });
  });

  it("revoke-user-session and revoke-user-sessions are recorded", async () => {
    const other = new TestBrowser(t.auth);
    const signedIn = await signIn(other, user.email);
    const session = await t.db.collection("sessions").findOne({ token: signedIn.body.token });
    expect(
      (await admin.browser.post("/admin/revoke-user-session", { sessionId: String(session!._id) })).status,
    ).toBe(200);
    expect(await t.db.collection("sessions").countDocuments({ _id: session!._id })).toBe(0);
    expect((await admin.browser.post("/admin/revoke-user-sessions", { userId: user.id })).status).toBe(200);
    expect(await sessionCount(t, user.id)).toBe(0);
    const events = await auditEvents(t, { subjectId: oid(user.id) });
    expect(events.map((event) => [event.action, event.details])).toEqual([
      ["session.revoke", { sessionId: String(session!._id), impersonatedBy: null }],
      ["session.revoke-all", { sessions: 1, impersonations: 0, apiKeys: 0 }],
    ]);
  });
});
