import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { auditEvents, UNAUTHORIZED, useAdminCast } from "#test/admin.ts";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";

/**
 * Security-hardening issue, finding 5: the admin's session parked while impersonating has its own
 * signed format (never a session cookie), and signing out mid-impersonation ends both sessions
 * and clears both cookies.
 */
const ADMIN_COOKIE = "tessera.admin_session";

const { t, admin, user } = useAdminCast();

async function startImpersonating(): Promise<string> {
  const res = await admin.browser.post("/admin/impersonate-user", { userId: user.id });
  expect(res.status).toBe(200);
  const parked = admin.browser.cookies.get(ADMIN_COOKIE);
  expect(parked).toBeDefined();
  return parked!;
}

const sessionsOf = (id: string) =>
  t.db
    .collection("sessions")
    .countDocuments({ $or: [{ userId: new ObjectId(id) }, { impersonatedBy: new ObjectId(id) }] });

describe("the parked admin session", () => {
  it("its cookie value replayed as the session cookie is no session", async () => {
    const parked = await startImpersonating();
    const replay = new TestBrowser(t.auth);
    replay.cookies.set(SESSION_COOKIE, parked);
    const read = await replay.get("/get-session");
    expect([read.status, read.body]).toEqual([200, null]);
    const acting = await replay.get("/admin/list-users");
    expect([acting.status, acting.body]).toEqual([401, UNAUTHORIZED]);
    // The admin's own session is still there, for stop-impersonating to restore.
    expect(await t.db.collection("sessions").countDocuments({ userId: new ObjectId(admin.id) })).toBe(1);
  });

  it("signing out while impersonating ends the impersonation and the admin's own session, and clears both cookies", async () => {
    const parked = await startImpersonating();
    const res = await admin.browser.post("/sign-out", {});
    expect([res.status, res.body]).toEqual([200, { success: true }]);
    const cleared = res.headers.getSetCookie().filter((line) => /Max-Age=0/i.test(line));
    // The impersonation's cookies (a browser-session one, hence dont_remember) and the parked one.
    expect(cleared.map((line) => line.split("=")[0]).sort()).toEqual([
      ADMIN_COOKIE,
      "tessera.dont_remember",
      SESSION_COOKIE,
    ]);
    expect(admin.browser.cookies.size).toBe(0);
    expect(await sessionsOf(admin.id)).toBe(0);
    // The user's own session (from sign-up) is not the admin's to end.
    expect(await t.db.collection("sessions").countDocuments({ userId: new ObjectId(user.id) })).toBe(1);

    // Replaying the parked cookie afterwards restores nothing.
    const replay = new TestBrowser(t.auth);
    replay.cookies.set(ADMIN_COOKIE, parked);
    const stop = await replay.post("/admin/stop-impersonating", {});
    expect([stop.status, stop.body]).toEqual([401, UNAUTHORIZED]);
    expect((await auditEvents(t)).map((event) => event.action)).toEqual(["impersonation.start"]);
  });
});
