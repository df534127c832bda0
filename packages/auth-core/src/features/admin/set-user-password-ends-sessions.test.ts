import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { auditEvents, sessionCount, signIn, useAdminCast } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

/** Review finding 7: set-user-password ends the user's sessions, with the database checked. */
const { t, admin, user } = useAdminCast();

const oid = (id: string) => new ObjectId(id);

describe("set-user-password ends the user's sessions", () => {
  it("every session of the target goes; the audit event says how many", async () => {
    await signIn(new TestBrowser(t.auth), user.email);
    expect(await sessionCount(t, user.id)).toBe(2);
    const res = await admin.browser.post("/admin/set-user-password", {
      userId: user.id,
      newPassword: "a brand new password",
    });
    expect(res.status).toBe(200);
    expect(await sessionCount(t, user.id)).toBe(0);
    expect((await user.browser.get("/get-session")).body).toBeNull();
    expect(await sessionCount(t, admin.id)).toBe(1);
    const [event] = await auditEvents(t, { action: "user.set-password" });
    expect(event).toMatchObject({
      actorId: oid(admin.id),
      subjectId: oid(user.id),
      details: { sessionsRevoked: 2, impersonationsRevoked: 0, apiKeysRevoked: 0 },
    });
  });

  it("an admin setting their own password keeps the current session, not the others", async () => {
    await signIn(new TestBrowser(t.auth), admin.email);
    expect(await sessionCount(t, admin.id)).toBe(2);
    const res = await admin.browser.post("/admin/set-user-password", {
      userId: admin.id,
      newPassword: "a brand new password",
    });
    expect(res.status).toBe(200);
    expect(await sessionCount(t, admin.id)).toBe(1);
    expect((await admin.browser.get<{ user: { id: string } }>("/get-session")).body.user.id).toBe(admin.id);
  });
});
