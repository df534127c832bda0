import type { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import { GONE, INTACT, PASSWORD, signUpIn, userRows } from "#test/deletion.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

async function setUp(deleteUser: { enabled?: boolean; sendDeleteAccountVerification?: boolean } = {}) {
  await openAuth({ user: { deleteUser: { enabled: true, ...deleteUser } } });
  const ada = new TestBrowser(t.auth);
  const adaId = await signUpIn(t, ada, "ada@example.com");
  const bob = new TestBrowser(t.auth);
  const bobId = await signUpIn(t, bob, "bob@example.com");
  return { ada, adaId, bob, bobId };
}

async function expectUntouched(ids: ObjectId[]): Promise<void> {
  for (const id of ids) expect(await userRows(t.db, id)).toEqual(INTACT);
}

describe("POST /delete-user", () => {
  it("answers 404 Not found when deletion is disabled, and deletes nothing", async () => {
    const { ada, adaId, bobId } = await setUp({ enabled: false });
    const res = await ada.post("/delete-user", { password: PASSWORD });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "DELETE_USER_DISABLED", message: "Not found" });
    await expectUntouched([adaId, bobId]);
  });

  it("deletes a user with a fresh session: user, every session, accounts; cookies cleared; others untouched", async () => {
    const { ada, adaId, bobId } = await setUp();
    const adaElsewhere = new TestBrowser(t.auth);
    await adaElsewhere.post("/sign-in/email", { email: "ada@example.com", password: PASSWORD });
    expect((await userRows(t.db, adaId)).sessions).toBe(2);

    const res = await ada.post("/delete-user", {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(res.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
    expect(ada.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
    expect((await adaElsewhere.get("/get-session")).body).toBeNull();
    await expectUntouched([bobId]);
  });

  it("deletes with the correct password even when the session is no longer fresh", async () => {
    const { ada, adaId, bobId } = await setUp();
    t.advance(2 * 86400);
    const res = await ada.post("/delete-user", { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(await userRows(t.db, adaId)).toEqual(GONE);
    await expectUntouched([bobId]);
  });

  it("refuses a stale session without password with 400 Session expired (the request's own read does not refresh it)", async () => {
    const { ada, adaId, bobId } = await setUp();
    // Past the fresh age (1 day) and the update age (1 day), within the session's 7 days.
    t.advance(86400 + 1);
    const res = await ada.post("/delete-user", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "SESSION_EXPIRED", message: "Session expired" });
    // A second attempt is refused too: the failed request did not make the session fresh.
    expect((await ada.post("/delete-user", {})).status).toBe(400);
    await expectUntouched([adaId, bobId]);
  });

  it("refuses a wrong password with 400 Invalid password and deletes nothing", async () => {
    const { ada, adaId, bobId } = await setUp();
    for (const password of ["wrong password!", "", "x".repeat(129)]) {
      const res = await ada.post("/delete-user", { password });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    }
    await expectUntouched([adaId, bobId]);
  });

  it("refuses an object-typed password or token with 400 and deletes nothing", async () => {
    const { ada, adaId } = await setUp();
    for (const body of [{ password: { $ne: "x" } }, { token: { $gt: "" } }, { password: 12345678 }]) {
      const res = await ada.post<{ code: string; message: string }>("/delete-user", body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.message).toBe("Invalid request");
    }
    await expectUntouched([adaId]);
  });

  it("refuses a password when the user has no credential account", async () => {
    const { ada, adaId } = await setUp();
    await t.db.collection("accounts").deleteMany({ userId: adaId });
    const res = await ada.post("/delete-user", { password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "CREDENTIAL_ACCOUNT_NOT_FOUND",
      message: "Credential account not found",
    });
    expect(await userRows(t.db, adaId)).toEqual({ ...INTACT, accounts: 0 });
  });

  it("answers 401 without a session", async () => {
    const { adaId } = await setUp();
    const res = await new TestBrowser(t.auth).post("/delete-user", {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "UNAUTHORIZED", message: "unauthorized" });
    await expectUntouched([adaId]);
  });

  it("refuses a cookie-bearing request from an untrusted origin with 403 Invalid origin", async () => {
    const { ada, adaId } = await setUp();
    const res = await ada.post("/delete-user", {}, { headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin" });
    await expectUntouched([adaId]);
  });

  it("refuses an untrusted callbackURL with 403 Invalid callbackURL", async () => {
    const { ada, adaId } = await setUp({ sendDeleteAccountVerification: true });
    const res = await ada.post("/delete-user", { callbackURL: "https://evil.example/bye" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    expect(t.outbox.latestTo("ada@example.com")).toBeNull();
    await expectUntouched([adaId]);
  });

  it("reads the session from the database, never the cookie cache: a revoked session deletes nothing", async () => {
    await openAuth({
      user: { deleteUser: { enabled: true } },
      session: { cookieCache: { enabled: true } },
    });
    const ada = new TestBrowser(t.auth);
    const adaId = await signUpIn(t, ada, "ada@example.com");
    expect(ada.cookies.has("tessera.session_data")).toBe(true);
    await t.db.collection("sessions").deleteMany({ userId: adaId });
    const res = await ada.post("/delete-user", {});
    expect(res.status).toBe(401);
    expect(await userRows(t.db, adaId)).toEqual({ ...INTACT, sessions: 0 });
  });

  it("works through the server API with the request's cookie", async () => {
    const { ada, adaId } = await setUp();
    const result = await t.auth.api.deleteUser({ headers: { cookie: ada.cookieHeader() } });
    expect(result.data).toEqual({ success: true, message: "User deleted" });
    expect(await userRows(t.db, adaId)).toEqual(GONE);
  });
});

describe("write order (no transactions)", () => {
  it("a crash right after the user row is deleted leaves nothing usable behind", async () => {
    // The cascade deletes sessions, then the user, then accounts and tokens (service.ts). Simulate a
    // crash after the second step: sessions and user gone, the account left over.
    const { ada, adaId } = await setUp();
    await t.db.collection("users").deleteOne({ _id: adaId });
    expect((await ada.get("/get-session")).body).toBeNull();
    const signIn = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: PASSWORD,
    });
    expect(signIn.status).toBe(401);
    // The email is free again; the leftover account does not attach to the new user.
    const again = new TestBrowser(t.auth);
    const newId = await signUpIn(t, again, "ada@example.com");
    expect(await userRows(t.db, newId)).toEqual(INTACT);
  });
});

describe("user delete hooks", () => {
  it("a before hook returning false refuses with 403 and nothing is deleted; after sees the deleted user", async () => {
    const deleted: string[] = [];
    await openAuth({
      user: { deleteUser: { enabled: true } },
      hooks: {
        user: {
          delete: {
            before: (user) => (user.email === "keep@example.com" ? false : undefined),
            after: (user) => {
              deleted.push(user.email);
            },
          },
        },
      },
    });
    const keep = new TestBrowser(t.auth);
    const keepId = await signUpIn(t, keep, "keep@example.com");
    const refused = await keep.post("/delete-user", {});
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "DELETE_USER_REFUSED", message: "User deletion was refused" });
    expect(await userRows(t.db, keepId)).toEqual(INTACT);

    const ada = new TestBrowser(t.auth);
    const adaId = await signUpIn(t, ada, "ada@example.com");
    expect((await ada.post("/delete-user", {})).status).toBe(200);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
    expect(deleted).toEqual(["ada@example.com"]);
  });
});
