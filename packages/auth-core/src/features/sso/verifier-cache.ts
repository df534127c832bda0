/**
 * Per createAuth instance (context.ts `ssoVerifiers`): each connection's id-token verifier, kept
 * while the connection is unchanged (`stamp`: its updatedAt) so its JWKS is fetched once and again
 * only for an unknown `kid` (key rotation); and the client secrets this instance opened, by their
 * sealed form (oidc-client.ts oidcClientOf: a sign-in's start and callback each needed one HKDF and
 * one AES-GCM open of the same envelope). Here, importing nothing, so context.ts can name it.
 */
export type ClaimsVerifier = (
  idToken: string,
  nonce: string | undefined,
) => Promise<{ ok: true; profile: Record<string, unknown> } | { ok: false; reason: string }>;

export interface VerifierCache {
  verifiers: Map<string, { stamp: number; verify: ClaimsVerifier }>;
  /**
   * Sealed client secret → the secret it opens to under this instance's app secret. Keyed by the
   * envelope itself, so a changed secret is a new key and an entry can never be stale.
   */
  clientSecrets: Map<string, string>;
}

export function createVerifierCache(): VerifierCache {
  return { verifiers: new Map(), clientSecrets: new Map() };
}
