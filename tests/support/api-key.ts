import type { AuthOptions } from "@tessera/auth-core";
import type { CreatedApiKey } from "../../packages/auth-core/src/features/api-key/types.ts";
import { signUp, TestBrowser } from "./browser.ts";
import { createTestAuth, type TestAuth } from "./test-auth.ts";

export type Overrides = Omit<Partial<AuthOptions>, "database">;

export interface SignedIn {
  browser: TestBrowser;
  userId: string;
}

export async function signedIn(t: TestAuth, email = "ada@example.com"): Promise<SignedIn> {
  const browser = new TestBrowser(t.auth);
  const res = await signUp(browser, { email });
  return { browser, userId: res.body.user.id };
}

/** Creates a key through server code (so limits may be set). */
export async function createKey(t: TestAuth, body: Record<string, unknown>): Promise<CreatedApiKey> {
  const res = await t.auth.api.createApiKey({ body });
  return res.data as CreatedApiKey;
}

export interface Verification {
  valid: boolean;
  error: { code: string; message: string; tryAgainIn?: number } | null;
  key: { id: string; remaining: number | null } | null;
}

export async function verifyKey(t: TestAuth, key: string, permissions?: Record<string, string[]>) {
  const res = await t.auth.api.verifyApiKey({ body: permissions ? { key, permissions } : { key } });
  return res.data as Verification;
}

/** Every document of every collection, serialised: to prove a secret is stored nowhere. */
export async function dumpDatabase(t: TestAuth): Promise<string> {
  const collections = await t.db.listCollections().toArray();
  const dumps = await Promise.all(
    collections.map(async ({ name }) => JSON.stringify(await t.db.collection(name).find({}).toArray())),
  );
  return dumps.join("\n");
}

export { createTestAuth, type TestAuth };
