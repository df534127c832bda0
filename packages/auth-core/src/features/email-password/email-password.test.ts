import { ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { hashPassword } from "../../crypto/index.ts";

/** The parameters scrypt-kdf stores in a hash (`s1$` + its 96-byte key: logN at 7, r and p big-endian). */
function scryptParams(stored: string): { logN: number; r: number; p: number } {
  const key = Buffer.from(stored.slice("s1$".length), "base64");
  return { logN: key.readUInt8(7), r: key.readUInt32BE(8), p: key.readUInt32BE(12) };
}

const { t, openAuth } = useTestAuthPerTest({ open: "each-test" });

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

  it("re-hashing an old-format hash on sign-in never writes back over a password changed meanwhile", async () => {
    // The re-hash runs two scrypt passes after reading the account; a reset landing in between must
    // win. The account update hook injects exactly that interleaving: it fires right before the
    // re-hash write, and the "reset" it performs is a direct database write.
    let resetHash: string | null = null;
    await openAuth({
      hooks: {
        account: {
          update: {
            before: async () => {
              resetHash = await hashPassword("the new password");
              await t.db.collection("accounts").updateOne({}, { $set: { password: resetHash } });
              return undefined;
            },
          },
        },
      },
    });
    await signUp(new TestBrowser(t.auth));
    const weak = await hashPassword("correct horse battery", { logN: 10, r: 8, p: 1 });
    await t.db.collection("accounts").updateOne({}, { $set: { password: weak } });
    const res = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
    });
    expect(res.status).toBe(200);
    expect(resetHash).not.toBeNull();
    expect((await t.db.collection("accounts").findOne({}))?.password).toBe(resetHash);
    const old = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
    });
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
  });

  it("a hash of the former default cost (scrypt N=2^14, r=8, p=1) signs in and is re-hashed at N=2^14, r=8, p=5", async () => {
    // Security-hardening issue, hashing cost: old hashes keep working and move to the new cost.
    await signUp(new TestBrowser(t.auth));
    const former = await hashPassword("correct horse battery", { logN: 14, r: 8, p: 1 });
    await t.db.collection("accounts").updateOne({}, { $set: { password: former } });
    const res = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
    });
    expect(res.status).toBe(200);
    const stored = String((await t.db.collection("accounts").findOne({}))?.password);
    expect(stored).not.toBe(former);
    expect(scryptParams(former)).toEqual({ logN: 14, r: 8, p: 1 });
    expect(scryptParams(stored)).toEqual({ logN: 14, r: 8, p: 5 });
    const again = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
    });
    expect(again.status).toBe(200);
    expect((await t.db.collection("accounts").findOne({}))?.password).toBe(stored);
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

const USER_SHAPE = {
  id: expect.stringMatching(/^[0-9a-f]{24}$/),
  email: "ada@example.com",
  emailVerified: false,
  name: "Ada Lovelace",
  image: null,
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
};

describe("response shapes", () => {
  it("sign-up answers {token, user}; sign-in answers {redirect, token, url, user} with the stored session", async () => {
    const up = await signUp(new TestBrowser(t.auth));
    expect(up.body).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9]{32}$/), user: USER_SHAPE });
    const browser = new TestBrowser(t.auth);
    const res = await browser.post<{ token: string }>("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ redirect: false, token: expect.any(String), url: null, user: USER_SHAPE });
    const session = await t.db.collection("sessions").findOne({ token: res.body.token });
    expect(session?.userId.toHexString()).toBe(up.body.user.id);
    const withCallback = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
      callbackURL: "/dashboard",
    });
    expect(withCallback.body).toMatchObject({ redirect: true, url: "/dashboard" });
    expect(await t.db.collection("sessions").countDocuments()).toBe(3);
  });
});

describe("with requireEmailVerification", () => {
  beforeEach(async () => {
    await openAuth({ emailAndPassword: { requireEmailVerification: true } });
  });

  it("sign-up of an existing address answers exactly like a new one, signs no one in and mails nothing", async () => {
    const fresh = await signUp(new TestBrowser(t.auth));
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ token: null, user: USER_SHAPE });
    expect(t.outbox.messages().map((m) => [m.to, m.kind])).toEqual([["ada@example.com", "verify-email"]]);
    const stored = await t.db.collection("users").findOne({ email: "ada@example.com" });

    const browser = new TestBrowser(t.auth);
    const again = await signUp(browser, { name: "Ada Lovelace" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ token: null, user: USER_SHAPE });
    expect(again.body.user.id).not.toBe(fresh.body.user.id);
    expect(Object.keys(again.body.user)).toEqual(Object.keys(fresh.body.user));
    expect(browser.cookies.size).toBe(0);
    expect(t.outbox.messages()).toHaveLength(1);
    expect(await t.db.collection("users").find().toArray()).toEqual([stored]);
    expect(await t.db.collection("accounts").countDocuments()).toBe(1);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
  });

  it("sign-in with the right password but an unverified address: 403, a new link mailed, no session", async () => {
    await signUp(new TestBrowser(t.auth));
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect(browser.cookies.size).toBe(0);
    expect(t.outbox.messages().map((m) => m.kind)).toEqual(["verify-email", "verify-email"]);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
    // A wrong password reveals nothing about the verification state and mails nothing.
    const wrong = await browser.post("/sign-in/email", { email: "ada@example.com", password: "wrong one!" });
    expect(wrong.status).toBe(401);
    expect(t.outbox.messages()).toHaveLength(2);
  });
});
