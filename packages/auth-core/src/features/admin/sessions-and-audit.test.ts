import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { sessionCount, signIn, signUpPerson, useAdminCast } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";

const { t, admin, user } = useAdminCast();

describe("list-user-sessions", () => {
  it("lists the user's unexpired sessions, newest first, and no one else's", async () => {
    await signIn(new TestBrowser(t.auth), user.email);
    const res = await admin.browser.post<{
      sessions: { userId: string; impersonatedBy: null }[];
    }>("/admin/list-user-sessions", { userId: user.id });
    expect(res.status).toBe(200);
    expect(res.body.sessions).toHaveLength(2);
    expect(res.body.sessions.every((session) => session.userId === user.id)).toBe(true);
    expect(res.body.sessions[0]).toMatchObject({ impersonatedBy: null });
    const expired = { ...(await t.db.collection("sessions").findOne({ userId: new ObjectId(user.id) }))! };
    const expiredId = new ObjectId();
    await t.db.collection("sessions").insertOne({
      ...expired,
      _id: expiredId,
      token: "e".repeat(32),
      expiresAt: new Date(t.now().getTime() - 1000),
    });
    const later = await admin.browser.post<{ sessions: { id: string }[] }>("/admin/list-user-sessions", {
      userId: user.id,
    });
    expect(later.body.sessions.map((session) => session.id)).not.toContain(expiredId.toHexString());
    expect(later.body.sessions).toHaveLength(2);
  });

  it("answers 404 for an unknown user", async () => {
    const res = await admin.browser.post("/admin/list-user-sessions", { userId: "000000000000000000000000" });
    expect(res.status).toBe(404);
  });
});

describe("revoke-user-session", () => {
  it("ends the named session only", async () => {
    const other = new TestBrowser(t.auth);
    const signedIn = await signIn(other, user.email);
    const res = await admin.browser.post("/admin/revoke-user-session", { sessionToken: signedIn.body.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await other.get("/get-session")).body).toBeNull();
    expect((await user.browser.get("/get-session")).body).not.toBeNull();
    expect(await sessionCount(t, user.id)).toBe(1);
  });

  it.each([["x".repeat(32)], [""]])(
    "answers 400 for an unknown token %j and deletes nothing",
    async (sessionToken) => {
      const res = await admin.browser.post<{ code: string }>("/admin/revoke-user-session", { sessionToken });
      expect(res.status).toBe(400);
      expect(await t.db.collection("sessions").countDocuments({})).toBe(2);
    },
  );

  it("refuses an operator object as the token", async () => {
    const res = await admin.browser.post("/admin/revoke-user-session", { sessionToken: { $ne: null } });
    expect(res.status).toBe(400);
    expect(await t.db.collection("sessions").countDocuments({})).toBe(2);
  });

  it("answers Session not found with its message", async () => {
    const res = await admin.browser.post("/admin/revoke-user-session", { sessionToken: "nope" });
    expect(res.body).toEqual({ code: "SESSION_NOT_FOUND", message: "Session not found" });
  });
});

describe("revoke-user-sessions", () => {
  it("ends every session of the user and leaves others alone", async () => {
    await signIn(new TestBrowser(t.auth), user.email);
    const res = await admin.browser.post("/admin/revoke-user-sessions", { userId: user.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await sessionCount(t, user.id)).toBe(0);
    expect(await sessionCount(t, admin.id)).toBe(1);
    expect((await user.browser.get("/get-session")).body).toBeNull();
  });
});

describe("list-audit-events", () => {
  type Page = {
    events: { action: string; actorId: string; subjectId: string }[];
    total: number;
    limit: number;
  };

  it("lists events newest first, filtered by actor or subject, paginated", async () => {
    const other = await signUpPerson(t, "other");
    await admin.browser.post("/admin/ban-user", { userId: user.id });
    await admin.browser.post("/admin/unban-user", { userId: user.id });
    await admin.browser.post("/admin/set-role", { userId: other.id, role: "admin" });
    await other.browser.post("/admin/ban-user", { userId: user.id });
    const all = await admin.browser.get<Page>("/admin/list-audit-events");
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(4);
    expect(all.body.events.map((event) => event.action)).toEqual([
      "user.ban",
      "user.set-role",
      "user.unban",
      "user.ban",
    ]);
    const byActor = await admin.browser.get<Page>(`/admin/list-audit-events?actorId=${other.id}`);
    expect(byActor.body.total).toBe(1);
    expect(byActor.body.events[0]).toMatchObject({ actorId: other.id, subjectId: user.id });
    const bySubject = await admin.browser.get<Page>(
      `/admin/list-audit-events?subjectId=${user.id}&limit=2&offset=1`,
    );
    expect(bySubject.body.total).toBe(3);
    expect(bySubject.body.limit).toBe(2);
    expect(bySubject.body.events.map((event) => event.action)).toEqual(["user.unban", "user.ban"]);
  });

  it("an id that is not 24 hex characters matches nothing; a malformed limit is refused", async () => {
    await admin.browser.post("/admin/ban-user", { userId: user.id });
    const none = await admin.browser.get<Page>("/admin/list-audit-events?actorId=nope");
    expect(none.body).toMatchObject({ events: [], total: 0 });
    const bad = await admin.browser.get("/admin/list-audit-events?limit=abc");
    expect(bad.status).toBe(400);
    const operator = await admin.browser.get("/admin/list-audit-events?actorId[$ne]=x");
    expect(operator.status).toBe(400);
  });

  it("answers the audit trail's exact text: an operator's event and an admin's, as stored", async () => {
    // A subject no other test names, so the page holds these two rows only.
    const subject = new ObjectId();
    const staff = new ObjectId();
    const operatorEvent = new ObjectId();
    const adminEvent = new ObjectId();
    await t.db.collection("auditEvents").insertMany([
      {
        _id: operatorEvent,
        action: "user.set-role",
        actorId: null,
        actor: "cli:alice",
        subjectId: subject,
        reason: null,
        ipAddress: null,
        userAgent: null,
        details: { from: "user", to: ["admin", "support"], nested: { n: 1, ok: true } },
        createdAt: new Date("2026-11-28T12:00:01Z"),
      },
      {
        // Written before `actor` existed: the key is absent and answers null.
        _id: adminEvent,
        action: "user.ban",
        actorId: staff,
        subjectId: subject,
        reason: 'spam "links"',
        ipAddress: "203.0.113.7",
        userAgent: "AdminConsole/1",
        details: null,
        createdAt: new Date("2026-11-28T12:00:00Z"),
      },
    ]);
    const page = await admin.browser.get(`/admin/list-audit-events?subjectId=${subject}`);
    expect(await page.response.text()).toBe(
      `{"events":[{"id":"${operatorEvent}","action":"user.set-role","actorId":null,"actor":"cli:alice",` +
        `"subjectId":"${subject}","reason":null,"ipAddress":null,"userAgent":null,` +
        `"details":{"from":"user","to":["admin","support"],"nested":{"n":1,"ok":true}},` +
        `"createdAt":"2026-11-28T12:00:01.000Z"},{"id":"${adminEvent}","action":"user.ban",` +
        `"actorId":"${staff}","actor":null,"subjectId":"${subject}","reason":"spam \\"links\\"",` +
        `"ipAddress":"203.0.113.7","userAgent":"AdminConsole/1","details":null,` +
        `"createdAt":"2026-11-28T12:00:00.000Z"}],"total":2,"limit":100,"offset":0}`,
    );
  });

  it("records the user agent with the event", async () => {
    await admin.browser.post(
      "/admin/ban-user",
      { userId: user.id },
      { headers: { "user-agent": "AdminConsole/1" } },
    );
    const event = await t.db.collection("auditEvents").findOne({ subjectId: new ObjectId(user.id) });
    expect(event).toMatchObject({ userAgent: "AdminConsole/1", action: "user.ban" });
  });
});
