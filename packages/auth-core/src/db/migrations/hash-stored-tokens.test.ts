import { afterEach, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { createTestAuth, type TestAuth } from "#test/test-auth.ts";
import { coreMigrationSteps } from "../../create-auth.ts";
import { deleteAccountIdentifier } from "../../features/deletion/rules.ts";
import { resetPasswordIdentifier } from "../../features/password/rules.ts";
import { hashStoredTokens } from "./0007-hash-stored-tokens.ts";
import { keyedLookups } from "./0009-keyed-lookups.ts";

/**
 * docs/security.md on an existing deployment: reset and delete-account rows written before tokens
 * were hashed are re-keyed by 0007, so links already in mailboxes keep working.
 */
let t: TestAuth;
afterEach(() => t.close());

const RESET_TOKEN = "aB3dE5gH9jK1mN2pQ4rS6tU8";
const DELETE_TOKEN = "0123456789abcdefghijklmnopqrstuv";
const EXPIRED_TOKEN = "zZ3dE5gH9jK1mN2pQ4rS6tU8";
const INERT_TOKEN = "yY3dE5gH9jK1mN2pQ4rS6tU8";

async function insertOldRows(userId: string): Promise<void> {
  const expiresAt = new Date(t.now().getTime() + 3600_000);
  await t.db.collection("verifications").insertMany([
    { identifier: `reset-password:${RESET_TOKEN}`, value: userId, expiresAt },
    { identifier: `delete-account-${DELETE_TOKEN}`, value: userId, expiresAt },
    { identifier: "oauth-state:unrelated", value: "{}", expiresAt },
    // Left as they are: an expired link (dead anyway, cleanup removes it) and the inert row an
    // unknown-email request leaves (it links to nobody).
    {
      identifier: `reset-password:${EXPIRED_TOKEN}`,
      value: userId,
      expiresAt: new Date(t.now().getTime() - 1000),
    },
    { identifier: `reset-password:${INERT_TOKEN}`, value: "", expiresAt },
  ]);
}

const identifiers = async () =>
  (await t.db.collection("verifications").find({}).sort({ identifier: 1 }).toArray()).map(
    (row) => row.identifier,
  );

describe("0007-hash-stored-tokens", () => {
  it("re-keys live user-bound rows by the token's hash, leaves expired, inert and other rows alone, and is idempotent", async () => {
    t = await createTestAuth();
    const res = await signUp(new TestBrowser(t.auth), { email: "ada@example.com" });
    await insertOldRows(res.body.user.id);
    await t.db.collection("_migrations").deleteOne({ _id: "0007-hash-stored-tokens" as never });
    expect(await t.auth.migrate()).toEqual(["0007-hash-stored-tokens"]);
    const expected = [
      deleteAccountIdentifier(DELETE_TOKEN),
      "oauth-state:unrelated",
      resetPasswordIdentifier(RESET_TOKEN),
      `reset-password:${EXPIRED_TOKEN}`,
      `reset-password:${INERT_TOKEN}`,
    ].sort();
    expect(await identifiers()).toEqual(expected);
    await hashStoredTokens.up(t.auth.context.collections, t.now(), coreMigrationSteps);
    expect(await identifiers()).toEqual(expected);
  });

  it("a reset link mailed before the upgrade still resets the password, once", async () => {
    t = await createTestAuth();
    const res = await signUp(new TestBrowser(t.auth), { email: "ada@example.com" });
    await insertOldRows(res.body.user.id);
    await hashStoredTokens.up(t.auth.context.collections, t.now(), coreMigrationSteps);
    // The upgrade runs every later migration too: 0009 moves the rows to their keyed _id.
    await keyedLookups.up(t.auth.context.collections, t.now(), coreMigrationSteps);
    const browser = new TestBrowser(t.auth);
    const reset = await browser.post("/reset-password", {
      token: RESET_TOKEN,
      newPassword: "a new password 1",
    });
    expect(reset).toMatchObject({ status: 200, body: { status: true } });
    const again = await browser.post("/reset-password", {
      token: RESET_TOKEN,
      newPassword: "another one 22",
    });
    expect(again).toMatchObject({ status: 400, body: { code: "INVALID_TOKEN", message: "invalid token" } });
    const signIn = await browser.post("/sign-in/email", {
      email: "ada@example.com",
      password: "a new password 1",
    });
    expect(signIn.status).toBe(200);
  });
});
