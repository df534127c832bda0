import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import { createKey, type Overrides } from "#test/api-key.ts";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import type { CreatedApiKey } from "./types.ts";

/**
 * Security-hardening issue, finding 3: API keys a (stolen) session minted end with account recovery
 * and "sign out everywhere"; minting one needs a fresh session; keys expire by default.
 */

const { t, openAuth } = useTestAuthPerTest();

const EMAIL = "ada@example.com";
const PASSWORD = "correct horse battery";
const ENABLED: Overrides = { apiKey: { enableSessionForAPIKeys: true } };
const KEY_GONE = { code: "API_KEY_INVALID", message: "invalid" };

interface Owner {
  userId: string;
  /** The owner's own browser. */
  owner: TestBrowser;
  /** A second session of the same user: the attacker's stolen one. */
  attacker: TestBrowser;
}

async function setUp(): Promise<Owner> {
  await openAuth(ENABLED, { frozen: true });
  const owner = new TestBrowser(t.auth);
  const userId = (await signUp(owner, { email: EMAIL, password: PASSWORD })).body.user.id;
  const attacker = new TestBrowser(t.auth);
  expect((await attacker.post("/sign-in/email", { email: EMAIL, password: PASSWORD })).status).toBe(200);
  return { userId, owner, attacker };
}

async function mintKey(browser: TestBrowser, name: string): Promise<CreatedApiKey> {
  const res = await browser.post<CreatedApiKey>("/api-key/create", { name });
  expect(res.status).toBe(200);
  return res.body;
}

/** Calls update-user with the key alone, as a script holding it would. */
function useKey(key: string) {
  return new TestBrowser(t.auth, null).post(
    "/update-user",
    { name: "Mallory" },
    { headers: { "x-api-key": key } },
  );
}

async function keyNames(userId: string): Promise<string[]> {
  const rows = await t.db
    .collection("apiKeys")
    .find({ userId: new ObjectId(userId) })
    .sort({ name: 1 })
    .toArray();
  return rows.map((row) => row.name as string);
}

/** The latest mail to the owner once it is of `kind` (notices leave in the background). */
async function mailOfKind(kind: string) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const mail = t.outbox.latestTo(EMAIL);
    if (mail?.kind === kind) return mail;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}

async function resetToken(): Promise<string> {
  await new TestBrowser(t.auth).post("/request-password-reset", { email: EMAIL });
  const link = t.outbox.latestTo(EMAIL)?.text.match(/https?:\/\/\S*\/reset-password\/\S+/)?.[0];
  if (!link) throw new Error("no reset link in the outbox");
  return new URL(link).pathname.split("/").pop()!;
}

describe("recovery ends the API keys a session minted", () => {
  it("a key minted from a stolen session stops working when the owner resets the password; a server-made key stays", async () => {
    const { userId, attacker } = await setUp();
    const stolen = await mintKey(attacker, "backdoor");
    const server = await createKey(t, { userId, name: "deploy" });
    expect((await useKey(stolen.key)).status).toBe(200);

    const res = await new TestBrowser(t.auth).post("/reset-password", {
      token: await resetToken(),
      newPassword: "a brand new password",
    });
    expect(res.status).toBe(200);

    const refused = await useKey(stolen.key);
    expect([refused.status, refused.body]).toEqual([401, KEY_GONE]);
    expect((await useKey(server.key)).status).toBe(200);
    expect(await keyNames(userId)).toEqual(["deploy"]);
    expect(await t.db.collection("apiKeyUses").countDocuments({ keyId: new ObjectId(stolen.id) })).toBe(0);
  });

  it("change-password with revokeOtherSessions ends the keys minted from a session", async () => {
    const { userId, owner, attacker } = await setUp();
    const stolen = await mintKey(attacker, "backdoor");
    const res = await owner.post("/change-password", {
      currentPassword: PASSWORD,
      newPassword: "a brand new password",
      revokeOtherSessions: true,
    });
    expect(res.status).toBe(200);
    const refused = await useKey(stolen.key);
    expect([refused.status, refused.body]).toEqual([401, KEY_GONE]);
    expect(await keyNames(userId)).toEqual([]);
  });

  it("revoke-other-sessions ends the other sessions and every key minted from a session, the caller's own included", async () => {
    const { userId, owner, attacker } = await setUp();
    const stolen = await mintKey(attacker, "backdoor");
    await mintKey(owner, "mine");
    await createKey(t, { userId, name: "deploy" });
    const res = await owner.post("/revoke-other-sessions", {});
    expect([res.status, res.body]).toEqual([200, { status: true }]);
    const refused = await useKey(stolen.key);
    expect([refused.status, refused.body]).toEqual([401, KEY_GONE]);
    expect(await keyNames(userId)).toEqual(["deploy"]);
    expect(await t.db.collection("sessions").countDocuments({ userId: new ObjectId(userId) })).toBe(1);
    // The owner hears of it: an integration of theirs may have stopped.
    const notice = await mailOfKind("api-keys-revoked");
    expect(notice?.subject).toBe("Your Tessera API keys were revoked");
    expect(notice?.text).toContain("2 API keys created from a signed-in session were revoked with it.");
  });

  it("revoke-sessions ends every session and every key minted from one", async () => {
    const { userId, owner, attacker } = await setUp();
    const stolen = await mintKey(attacker, "backdoor");
    await createKey(t, { userId, name: "deploy" });
    const res = await owner.post("/revoke-sessions", {});
    expect([res.status, res.body]).toEqual([200, { status: true }]);
    expect((await useKey(stolen.key)).status).toBe(401);
    expect(await keyNames(userId)).toEqual(["deploy"]);
    expect(await t.db.collection("sessions").countDocuments({ userId: new ObjectId(userId) })).toBe(0);
  });

  it("records which keys a session minted, and only those", async () => {
    const { userId, owner } = await setUp();
    const minted = await mintKey(owner, "mine");
    const server = await createKey(t, { userId, name: "deploy" });
    const row = (id: string) => t.db.collection("apiKeys").findOne({ _id: new ObjectId(id) });
    expect((await row(minted.id))?.createdFromSession).toBe(true);
    expect((await row(server.id))?.createdFromSession).toBe(false);
  });
});

describe("minting a key needs a fresh session", () => {
  it("a session older than the fresh age cannot create a key; nothing is stored", async () => {
    const { userId, attacker } = await setUp();
    t.advance(86400 + 1);
    const res = await attacker.post("/api-key/create", { name: "backdoor" });
    expect([res.status, res.body]).toEqual([
      403,
      { code: "SESSION_NOT_FRESH", message: "Session is not fresh" },
    ]);
    expect(await keyNames(userId)).toEqual([]);
  });

  it("a session older than the fresh age cannot extend a key (new expiry, re-enabling); renaming still works", async () => {
    const { userId, attacker } = await setUp();
    const key = await mintKey(attacker, "backdoor");
    const before = await t.db.collection("apiKeys").findOne({ _id: new ObjectId(key.id) });
    t.advance(86400 + 1);
    const NOT_FRESH = [403, { code: "SESSION_NOT_FRESH", message: "Session is not fresh" }];
    const extend = await attacker.post("/api-key/update", { keyId: key.id, expiresIn: null });
    expect([extend.status, extend.body]).toEqual(NOT_FRESH);
    const enable = await attacker.post("/api-key/update", { keyId: key.id, enabled: true });
    expect([enable.status, enable.body]).toEqual(NOT_FRESH);
    const after = await t.db.collection("apiKeys").findOne({ _id: new ObjectId(key.id) });
    expect(after?.expiresAt).toEqual(before?.expiresAt);
    const rename = await attacker.post("/api-key/update", { keyId: key.id, name: "renamed" });
    expect(rename.status).toBe(200);
    expect(await keyNames(userId)).toEqual(["renamed"]);
  });

  it("server code naming a user needs no session", async () => {
    const { userId } = await setUp();
    t.advance(86400 + 1);
    const created = await createKey(t, { userId, name: "deploy" });
    expect(created.name).toBe("deploy");
  });
});

describe("API keys expire by default", () => {
  it("a key created without expiresIn expires after 90 days; an explicit null never expires", async () => {
    const { userId, owner } = await setUp();
    const now = t.now().getTime();
    const byDefault = await mintKey(owner, "default");
    const never = (await owner.post<CreatedApiKey>("/api-key/create", { name: "never", expiresIn: null }))
      .body;
    const row = (id: string) => t.db.collection("apiKeys").findOne({ _id: new ObjectId(id) });
    expect((await row(byDefault.id))?.expiresAt).toEqual(new Date(now + 90 * 86400 * 1000));
    expect(new Date(byDefault.expiresAt!).getTime()).toBe(now + 90 * 86400 * 1000);
    expect((await row(never.id))?.expiresAt).toBeNull();
    expect(await keyNames(userId)).toEqual(["default", "never"]);
  });
});

describe("an administrator ending a user's sessions ends the keys those sessions minted", () => {
  it("admin revoke-user-sessions deletes the keys a session created, tells the owner, and keeps a server-made key", async () => {
    const { userId, attacker } = await setUp();
    const stolen = await mintKey(attacker, "backdoor");
    const server = await createKey(t, { userId, name: "deploy" });
    const admin = await signUpPerson(t, "boss", "admin");

    const res = await admin.browser.post("/admin/revoke-user-sessions", { userId });
    expect(res.status).toBe(200);

    const refused = await useKey(stolen.key);
    expect([refused.status, refused.body]).toEqual([401, KEY_GONE]);
    expect((await useKey(server.key)).status).toBe(200);
    expect(await keyNames(userId)).toEqual(["deploy"]);
    expect((await mailOfKind("api-keys-revoked"))?.to).toBe(EMAIL);
    const event = await t.db.collection("auditEvents").findOne({ action: "session.revoke-all" });
    expect(event?.details).toEqual({ sessions: 2, impersonations: 0, apiKeys: 1 });
  });
});
