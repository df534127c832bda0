import type { AuthOptions } from "@tessera/auth-core";
import type { CreatedApiKey } from "../../packages/auth-core/src/features/api-key/types.ts";
import { signUpUser, type TestBrowser } from "./browser.ts";
import { createTestAuth, type TestAuth } from "./test-auth.ts";

export type Overrides = Omit<Partial<AuthOptions>, "database">;

export interface SignedIn {
  browser: TestBrowser;
  userId: string;
}

export async function signedIn(t: TestAuth, email = "ada@example.com"): Promise<SignedIn> {
  const { browser, id } = await signUpUser(t, { email });
  return { browser, userId: id };
}

/** Creates a key through server code (so limits may be set). */
export async function createKey(t: TestAuth, body: Record<string, unknown>): Promise<CreatedApiKey> {
  const res = await t.auth.api.createApiKey({ body });
  return res.data as CreatedApiKey;
}

interface Verification {
  valid: boolean;
  error: { code: string; message: string; tryAgainIn?: number } | null;
  key: { id: string; remaining: number | null } | null;
}

export async function verifyKey(t: TestAuth, key: string, permissions?: Record<string, string[]>) {
  const res = await t.auth.api.verifyApiKey({ body: permissions ? { key, permissions } : { key } });
  return res.data as Verification;
}

export { createTestAuth, type TestAuth };
