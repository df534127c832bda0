import { beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import {
  expectCatalogueError,
  expectNoSessionIssued,
  PASSWORD,
  postJsonText,
  sendRaw,
  snapshotDatabase,
} from "./helpers.ts";

/**
 * Matrix A: operator injection, type confusion and mass assignment. Strict schemas of primitives
 * mean no object ever reaches a query (NoSQL CS) and no unknown field reaches a document (A5, A8).
 */
const { t, openAuth } = useTestAuthPerTest();
beforeEach(async () => {
  await openAuth();
  await signUp(new TestBrowser(t.auth), { email: "victim@example.com", password: PASSWORD });
});

/** Sends, and asserts the answer is a 400 that wrote nothing and issued no session. */
async function expectRefusedUnchanged(path: string, text: string, code = "VALIDATION_ERROR") {
  const before = await snapshotDatabase(t.db);
  const res = await postJsonText(t.auth, path, text);
  const messages: Record<string, string> = {
    VALIDATION_ERROR: "Invalid request",
    INVALID_EMAIL: "Invalid email",
    PASSWORD_TOO_LONG: "Password too long",
  };
  expectCatalogueError(res, 400, code, messages[code]!);
  expectNoSessionIssued(res.headers);
  expect(await snapshotDatabase(t.db)).toBe(before);
  return res;
}

const victim = (fields: Record<string, unknown>) =>
  JSON.stringify({ email: "victim@example.com", password: PASSWORD, ...fields });

describe("operator injection and type confusion on sign-in", () => {
  it.each([
    ["email operator $ne", JSON.stringify({ email: { $ne: null }, password: { $ne: null } })],
    ["password operator $gt", victim({ password: { $gt: "" } })],
    ["email operator $regex", JSON.stringify({ email: { $regex: "^v" }, password: "x" })],
    ["email operator $in", JSON.stringify({ email: { $in: ["victim@example.com"] }, password: PASSWORD })],
    ["email as an array", victim({ email: ["attacker@example.com", "victim@example.com"] })],
    ["password as a number", victim({ password: 1234567890123456 })],
    ["password as an array", victim({ password: [PASSWORD] })],
    ["email as a nested object", victim({ email: { toString: "victim@example.com" } })],
    ["null email and password", JSON.stringify({ email: null, password: null })],
    ["rememberMe as a string", victim({ rememberMe: "false" })],
    ["callbackURL as an object", victim({ callbackURL: { $ne: null } })],
    ["an extra $where key", victim({ $where: "sleep(5000)" })],
    ["an extra key", victim({ userId: "000000000000000000000000" })],
  ])("refuses %s with 400", async (_name, text) => {
    await expectRefusedUnchanged("/sign-in/email", text);
    expect(await t.db.collection("sessions").countDocuments()).toBe(1); // the sign-up session only
  });

  it.each([
    ["__proto__", `{"email":"victim@example.com","password":"${PASSWORD}","__proto__":{"isAdmin":true}}`],
    [
      "constructor.prototype",
      `{"email":"victim@example.com","password":"${PASSWORD}","constructor":{"prototype":{"isAdmin":true}}}`,
    ],
  ])("refuses a %s key with 400 and pollutes no prototype", async (_name, text) => {
    await expectRefusedUnchanged("/sign-in/email", text);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it("uses the value it validated when a key is repeated", async () => {
    // JSON.parse keeps the last value: the victim's password is checked against nobody@.
    const text = `{"email":"victim@example.com","email":"nobody@example.com","password":"${PASSWORD}"}`;
    const res = await postJsonText(t.auth, "/sign-in/email", text);
    expectCatalogueError(res, 401, "INVALID_EMAIL_OR_PASSWORD", "Invalid email or password");
    expectNoSessionIssued(res.headers);
  });
});

describe("mass assignment and types on sign-up", () => {
  const newUser = (fields: Record<string, unknown>) =>
    JSON.stringify({ name: "Mallory", email: "mallory@example.com", password: PASSWORD, ...fields });

  it.each([
    ["emailVerified: true", { emailVerified: true }],
    ["role: admin", { role: "admin" }],
    ["an id", { id: "000000000000000000000001" }],
    ["an _id", { _id: "000000000000000000000001" }],
    ["createdAt", { createdAt: "1970-01-01T00:00:00.000Z" }],
    ["banned: false", { banned: false }],
    ["name as a boolean", { name: true }],
    ["name as an operator object", { name: { $set: { role: "admin" } } }],
    ["image as a number", { image: 1 }],
    ["email operator $ne", { email: { $ne: null } }],
    ["email as an array", { email: ["mallory@example.com", "victim@example.com"] }],
  ])("refuses %s with 400 and creates no user", async (_name, fields) => {
    await expectRefusedUnchanged("/sign-up/email", newUser(fields));
    expect(await t.db.collection("users").countDocuments({ email: "mallory@example.com" })).toBe(0);
  });

  it("never stores a user as verified, whatever the body says", async () => {
    await postJsonText(t.auth, "/sign-up/email", newUser({ emailVerified: true }));
    const ok = await postJsonText(t.auth, "/sign-up/email", newUser({}));
    expect(ok.status).toBe(200);
    const stored = await t.db.collection("users").findOne({ email: "mallory@example.com" });
    expect(stored?.emailVerified).toBe(false);
    // `_events` is the events outbox (features/events), emptied by the relay after the answer.
    const fields = Object.keys(stored ?? {}).filter((key) => key !== "_events");
    expect(fields.sort()).toEqual(
      ["_id", "createdAt", "email", "emailVerified", "image", "name", "updatedAt"].sort(),
    );
  });

  it("refuses __proto__ and constructor keys on sign-up", async () => {
    const proto = `{"name":"M","email":"mallory@example.com","password":"${PASSWORD}","__proto__":{"role":"admin"}}`;
    await expectRefusedUnchanged("/sign-up/email", proto);
    const ctor = `{"name":"M","email":"mallory@example.com","password":"${PASSWORD}","constructor":{"prototype":{"role":"admin"}}}`;
    await expectRefusedUnchanged("/sign-up/email", ctor);
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });

  it("refuses very long strings with the catalogue message and writes nothing", async () => {
    await expectRefusedUnchanged("/sign-up/email", newUser({ name: "n".repeat(10_000) }));
    await expectRefusedUnchanged(
      "/sign-up/email",
      newUser({ email: `${"a".repeat(1000)}@example.com` }),
      "INVALID_EMAIL",
    );
    await expectRefusedUnchanged(
      "/sign-up/email",
      newUser({ password: "p".repeat(10_000) }),
      "PASSWORD_TOO_LONG",
    );
    await expectRefusedUnchanged("/sign-up/email", newUser({ callbackURL: `/${"c".repeat(10_000)}` }));
    await expectRefusedUnchanged("/sign-up/email", newUser({ image: `https://x.io/${"i".repeat(10_000)}` }));
  });

  it("answers sign-in with a 1 MB-class password as a plain failure, without hashing it", async () => {
    // scrypt's cost hardly depends on the password's length (it is pre-hashed once), so an absolute
    // time limit cannot tell whether the KDF ran. Compared with a wrong password of normal length —
    // which runs it — refusing before the KDF must be far cheaper.
    const timed = async (password: string) => {
      const started = performance.now();
      const res = await postJsonText(t.auth, "/sign-in/email", victim({ password }));
      expectCatalogueError(res, 401, "INVALID_EMAIL_OR_PASSWORD", "Invalid email or password");
      return performance.now() - started;
    };
    const long: number[] = [];
    const normal: number[] = [];
    for (let i = 0; i < 5; i++) {
      long.push(await timed("p".repeat(500_000)));
      normal.push(await timed("wrong password"));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2]!;
    expect(median(long)).toBeLessThan(median(normal) / 2);
  });

  it("stores a name with NUL and emoji safely and answers valid JSON", async () => {
    const res = await new TestBrowser(t.auth).post<{ user: { name: string } }>("/sign-up/email", {
      name: "a\u0000b 😀",
      email: "emoji@example.com",
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body.user.name).toBe("a\u0000b 😀");
  });

  it("refuses an email carrying a header injection and sends no mail", async () => {
    await expectRefusedUnchanged(
      "/sign-up/email",
      newUser({ email: "a@x.io\r\nBcc: evil@y.io" }),
      "INVALID_EMAIL",
    );
    expect(t.outbox.messages()).toEqual([]);
  });
});

describe("query injection on get-session", () => {
  it.each([
    "?disableCookieCache[$ne]=1",
    "?disableRefresh=yes",
    "?disableCookieCache=1",
    "?token=abc",
    "?__proto__[admin]=1",
  ])("refuses %s with 400 and does not resolve the session", async (query) => {
    const browser = new TestBrowser(t.auth);
    await browser.post("/sign-in/email", { email: "victim@example.com", password: PASSWORD });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    const before = await snapshotDatabase(t.db);
    const res = await browser.get(`/get-session${query}`);
    expectCatalogueError(res, 400, "VALIDATION_ERROR", "Invalid request");
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  it("does not accept a session token from the query string (D12)", async () => {
    const signedIn = await new TestBrowser(t.auth).post<{ token: string }>("/sign-in/email", {
      email: "victim@example.com",
      password: PASSWORD,
    });
    const res = await sendRaw(t.auth, "GET", `/get-session?token=${signedIn.body.token}`);
    expect(res.status).toBe(400);
  });
});
