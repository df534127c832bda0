import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { auditEvents, sessionCount, signIn, useAdminCast } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

/** Review finding 10: the token-free session listing and revoking one session by id. */
const { t, admin, user } = useAdminCast();

const oid = (id: string) => new ObjectId(id);

describe("revoke-user-session by id", () => {
  it("list-user-sessions shows ids and no token; the id revokes exactly that session", async () => {
    const second = new TestBrowser(t.auth);
    const signedIn = await signIn(second, user.email);
    const res = await admin.browser.post<{ sessions: Record<string, unknown>[] }>(
      "/admin/list-user-sessions",
      {
        userId: user.id,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.sessions).toHaveLength(2);
    expect(res.body.sessions.every((session) => !("token" in session))).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain(signedIn.body.token);
    const id = res.body.sessions[0]!.id as string;
    expect((await admin.browser.post("/admin/revoke-user-session", { sessionId: id })).status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments({ _id: oid(id) })).toBe(0);
    expect(await sessionCount(t, user.id)).toBe(1);
  });

  it("parallel revocations of one session: exactly one succeeds and is recorded", async () => {
    const signedIn = await signIn(new TestBrowser(t.auth), user.email);
    const session = await t.db.collection("sessions").findOne({ token: signedIn.body.token });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        admin.browser.post(
          "/admin/revoke-user-session",
          index % 2 === 0 ? { sessionId: String(session!._id) } : { sessionToken: signedIn.body.token },
        ),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect(await t.db.collection("sessions").countDocuments({ _id: session!._id })).toBe(0);
    expect(await sessionCount(t, user.id)).toBe(1);
    expect(await auditEvents(t, { action: "session.revoke" })).toHaveLength(1);
  });

  it.each([
    [{ sessionId: "000000000000000000000000" }, 400],
    [{ sessionId: "not-an-id" }, 400],
    [{}, 400],
    [{ sessionId: "000000000000000000000000", sessionToken: "x" }, 400],
  ])("%j → %i, nothing deleted", async (body, status) => {
    const res = await admin.browser.post<{ code: string }>("/admin/revoke-user-session", body);
    expect(res.status).toBe(status);
    if ("sessionId" in body && !("sessionToken" in body)) {
      expect(res.body).toEqual({ code: "SESSION_NOT_FOUND", message: "Session not found" });
    }
    expect(await t.db.collection("sessions").countDocuments({})).toBe(2);
  });
});
