import { createProviders } from "../../packages/auth-core/src/features/social/providers/index.ts";
import {
  type BuiltInProviderId,
  type GenericProviderOptions,
  genericProviderOptionsSchema,
  type OAuthProvider,
  type ProviderDeps,
  providerOptionsSchema,
} from "../../packages/auth-core/src/features/social/providers/types.ts";
import { type OAuthServer, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "./oauth-server.ts";

/** Test-only helpers shared by the provider test files (not exported from index.ts). */

export const REDIRECT_URI = "http://localhost:3000/api/auth/callback/test";
/** 128 characters of RFC 7636 unreserved characters, like the flow's (docs/decisions/). */
export const CODE_VERIFIER = "Verifier-0123456789_~.".padEnd(128, "x");

export function testDeps(overrides: Partial<ProviderDeps> = {}): ProviderDeps {
  return { fetch: globalThis.fetch, now: () => new Date(), timeoutMs: 3000, jwksCooldownMs: 0, ...overrides };
}

/** A built-in provider pointed at the test server, its options parsed like createAuth parses them. */
export function serverProvider(
  server: OAuthServer,
  id: BuiltInProviderId,
  options: Record<string, unknown> = {},
  deps: ProviderDeps = testDeps(),
): OAuthProvider {
  const parsed = providerOptionsSchema.parse({
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    endpoints: server.endpoints(id),
    ...options,
  });
  const provider = createProviders({ socialProviders: { [id]: parsed }, genericOAuth: [] }, deps).get(id);
  if (!provider) throw new Error(`provider ${id} not built`);
  return provider;
}

export function genericOptions(input: Record<string, unknown>): GenericProviderOptions {
  return genericProviderOptionsSchema.parse({
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    ...input,
  });
}

/** Runs the browser half of an authorization-code flow and exchanges the code. */
export async function signInThrough(
  server: OAuthServer,
  provider: OAuthProvider,
  input: { nonce?: string; scopes?: string[]; codeVerifier?: string } = {},
) {
  const url = provider.createAuthorizationURL({
    state: "state-0123456789abcdef0123456789",
    codeVerifier: CODE_VERIFIER,
    redirectURI: REDIRECT_URI,
    scopes: input.scopes ?? [],
    ...(input.nonce ? { nonce: input.nonce } : {}),
  });
  const result = await server.authorize(url);
  if (!result.code) throw new Error(`no code: ${JSON.stringify(result)}`);
  const tokens = await provider.exchangeCode({
    code: result.code,
    codeVerifier: input.codeVerifier ?? CODE_VERIFIER,
    redirectURI: REDIRECT_URI,
    ...(result.deviceId ? { deviceId: result.deviceId } : {}),
  });
  return { url, result, tokens };
}
