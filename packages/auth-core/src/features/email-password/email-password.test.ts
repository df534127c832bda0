import { ObjectId } from "mongodb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "../../../../../tests/support/browser.ts";
import { createTestAuth, type TestAuth } from "../../../../../tests/support/test-auth.ts";

let t: TestAuth;
beforeEach(async () => {
  t = await createTestAuth();
});
afterEach(async () => {
  await t.close();
});

describe("sign-up by email", () => {
  it("creates the user, a credential account with a scrypt hash, and a session cookie", async () => {
    const browser = new TestBrowser(t.auth);
    const res = await signUp(browser, { email: "  Ada@Example.COM " });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe("ada@example.com");
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    const user = await t.db.collection("users").findOne({ email: "ada@example.com" });
    expect(user?.emailVerified).toBe(false);
    const account = await t.db.collection("accounts").findOne({ userId: user?._id });
    expect(account?.providerId).toBe("credential");
    expect(account?.password).toMatch(/^s1\$/);
    expect(await t.db.collection("sessions").countDocuments({ userId: user?._id })).toBe(1);
  });

  it("refuses an existing email with 422 User already exists and writes nothing", async () => {
    await signUp(new TestBrowser(t.auth));
    const res = await signUp(new TestBrowser(t.auth));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
    expect(await t.db.collection("users").countDocuments()).toBe(1);
    expect(await t.db.collection("accounts").countDocuments()).toBe(1);
  });
});

describe("sign-in by email", () => {
  it("signs in with the right password and get-session returns the user", async () => {
    await signUp(new TestBrowser(t.auth));
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
    });
    expect(res.status).toBe(200);
    const session = await browser.get<{ user: { email: string }; session: { userId: string } }>(
      "/get-session",
    );
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe("ada@example.com");
    expect(ObjectId.isValid(session.body.session.userId)).toBe(true);
  });

  it("answers the same 401 for an unknown email and a wrong password", async () => {
    await signUp(new TestBrowser(t.auth));
    const browser = new TestBrowser(t.auth);
    const wrong = await browser.post("/sign-in/email", {
      email: "ada@example.com",
      password: "wrong password!",
    });
    const unknown = await browser.post("/sign-in/email", {
      email: "bob@example.com",
      password: "wrong password!",
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    }
    expect(await t.db.collection("sessions").countDocuments()).toBe(1);
  });
});
