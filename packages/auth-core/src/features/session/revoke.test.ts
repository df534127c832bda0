import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { DAY, findSessionRow, isClearing, setCookieLine, tokenOf } from "#test/session-cookies.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

interface ListedSession {
  id: string;
  userId: string;
  token: string;
  expiresAt: string;
}

const { t, openAuth } = useTestAuthPerTest();

const UNAUTHORIZED = { code: "UNAUTHORIZED", message: "unauthorized" };
const SESSION_NOT_FOUND = { code: "SESSION_NOT_FOUND", message: "Session not found" };

async function signIn(email = "ada@example.com", rememberMe = true): Promise<TestBrowser> {
  const browser = new TestBrowser(t.auth);
  const res = await browser.post("/sign-in/email", { email, password: "correct horse battery", rememberMe });
  expect(res.status).toBe(200);
  return browser;
}

/** Ada with three browsers (sessions) and Bob with one. */
async function setUpUsers() {
  const ada = [new TestBrowser(t.auth)];
  await signUp(ada[0]!);
  ada.push(await signIn(), await signIn());
  const bob = new TestBrowser(t.auth);
  await signUp(bob, { email: "bob@example.com" });
  return { ada: ada as [TestBrowser, TestBrowser, TestBrowser], bob };
}

async function liveTokens(): Promise<string[]> {
  const rows = await t.db.collection("sessions").find().toArray();
  return rows.map((row) => row.token as string).sort();
}

describe("list-sessions", () => {
  it("lists the caller's unexpired sessions with their tokens, and no one else's", async () => {
    // A fresh age longer than the day we skip, so list-sessions (fresh-only) still answers.
    await openAuth({ session: { freshAge: 3 * DAY } });
    const { ada, bob } = await setUpUsers();
    const shortLived = await signIn("ada@example.com", false);
    t.advance(DAY + 1);
    const res = await ada[0].get<ListedSession[]>("/list-sessions");
    expect(res.status).toBe(200);
    const expected = ada.map(tokenOf).sort();
    expect(res.body.map((s) => s.token).sort()).toEqual(expected);
    expect(res.body.map((s) => s.token)).not.toContain(tokenOf(bob));
    expect(res.body.map((s) => s.token)).not.toContain(tokenOf(shortLived));
    const row = await findSessionRow(t.db, tokenOf(ada[1]));
    const listed = res.body.find((s) => s.token === tokenOf(ada[1]));
    expect(Object.keys(listed!).sort()).toEqual(
      [
        "activeOrganizationId",
        "createdAt",
        "expiresAt",
        "id",
        "ipAddress",
        "token",
        "updatedAt",
        "userAgent",
        "userId",
      ].sort(),
    );
    expect(listed).toMatchObject({ id: row!._id.toHexString(), userId: row!.userId.toHexString() });
    expect(new Date(listed!.expiresAt)).toEqual(row!.expiresAt);
  });

  it("answers 401 without a session", async () => {
    await openAuth();
    const res = await new TestBrowser(t.auth).get("/list-sessions");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it("requires a fresh session (updated within the fresh age)", async () => {
    await openAuth({ session: { freshAge: 3600 } });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    t.advance(7200);
    const stale = await browser.get("/list-sessions");
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
    const fresh = await signIn();
    expect((await fresh.get("/list-sessions")).status).toBe(200);
  });
});

describe("revoke-session", () => {
  it("ends another session of the caller; the caller's own stays signed in", async () => {
    await openAuth();
    const { ada, bob } = await setUpUsers();
    const victim = tokenOf(ada[1]);
    const res = await ada[0].post("/revoke-session", { token: victim });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(setCookieLine(res.headers, SESSION_COOKIE)).toBeUndefined();
    expect(await liveTokens()).toEqual([tokenOf(ada[0]), tokenOf(ada[2]), tokenOf(bob)].sort());
    expect((await ada[1].get("/get-session")).body).toBeNull();
    expect((await ada[0].get("/get-session")).body).not.toBeNull();
  });

  it("answers 400 Session not found for another user's token and an unknown one, and deletes nothing", async () => {
    await openAuth();
    const { ada, bob } = await setUpUsers();
    const before = await liveTokens();
    for (const token of [tokenOf(bob), "x".repeat(32)]) {
      const res = await ada[0].post("/revoke-session", { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(SESSION_NOT_FOUND);
    }
    expect(await liveTokens()).toEqual(before);
    expect((await bob.get("/get-session")).body).not.toBeNull();
  });

  it("revoking the current session signs the caller out", async () => {
    await openAuth();
    const { ada } = await setUpUsers();
    const token = tokenOf(ada[0]);
    const res = await ada[0].post("/revoke-session", { token });
    expect(res.body).toEqual({ status: true });
    expect(isClearing(setCookieLine(res.headers, SESSION_COOKIE))).toBe(true);
    expect(await findSessionRow(t.db, token)).toBeNull();
  });

  it("refuses a token that is not a string (operator injection) with 400 and deletes nothing", async () => {
    await openAuth();
    const { ada } = await setUpUsers();
    const before = await liveTokens();
    for (const token of [{ $ne: null }, "", 42]) {
      const res = await ada[0].post("/revoke-session", { token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
    }
    expect(await liveTokens()).toEqual(before);
  });

  it("answers 401 without a session and deletes nothing", async () => {
    await openAuth();
    const { ada } = await setUpUsers();
    const res = await new TestBrowser(t.auth).post("/revoke-session", { token: tokenOf(ada[1]) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(await liveTokens()).toHaveLength(4);
  });
});

describe("revoke-sessions", () => {
  it("ends every session of the caller, clears the cookies and leaves other users alone", async () => {
    await openAuth();
    const { ada, bob } = await setUpUsers();
    const res = await ada[0].post("/revoke-sessions");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(isClearing(setCookieLine(res.headers, SESSION_COOKIE))).toBe(true);
    expect(await liveTokens()).toEqual([tokenOf(bob)]);
    for (const browser of ada) expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("refuses a cookie-bearing request from an untrusted origin and deletes nothing", async () => {
    await openAuth();
    const { ada } = await setUpUsers();
    const res = await ada[0].post("/revoke-sessions", {}, { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    expect(await liveTokens()).toHaveLength(4);
  });
});

describe("revoke-other-sessions", () => {
  it("ends every session of the caller except the current one", async () => {
    await openAuth();
    const { ada, bob } = await setUpUsers();
    const res = await ada[1].post("/revoke-other-sessions");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(setCookieLine(res.headers, SESSION_COOKIE)).toBeUndefined();
    expect(await liveTokens()).toEqual([tokenOf(ada[1]), tokenOf(bob)].sort());
    expect((await ada[1].get("/get-session")).body).not.toBeNull();
    expect((await ada[0].get("/get-session")).body).toBeNull();
  });

  it("reads the caller from the database, not the cookie cache: a revoked session revokes nothing", async () => {
    await openAuth({ session: { cookieCache: { enabled: true } } });
    const { ada } = await setUpUsers();
    await t.db.collection("sessions").deleteOne({ token: tokenOf(ada[0]) });
    // get-session may still answer from the 60-second cache...
    expect((await ada[0].get("/get-session")).body).not.toBeNull();
    // ...but the revoke endpoints do not trust it.
    for (const path of ["/revoke-other-sessions", "/revoke-sessions"]) {
      const res = await ada[0].post(path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
    }
    const revokeOne = await ada[0].post("/revoke-session", { token: tokenOf(ada[1]) });
    expect(revokeOne.status).toBe(401);
    expect(await liveTokens()).toHaveLength(3);
  });
});
