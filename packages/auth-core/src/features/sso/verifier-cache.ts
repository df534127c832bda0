/**
 * Per createAuth instance (context.ts `ssoVerifiers`): each connection's id-token verifier, kept
 * while the connection is unchanged (`stamp`: its updatedAt) so its JWKS is fetched once and again
 * only for an unknown `kid` (key rotation). Here, importing nothing, so context.ts can name it.
 */
export type ClaimsVerifier = (
  idToken: string,
  nonce: string | undefined,
) => Promise<{ ok: true; profile: Record<string, unknown> } | { ok: false; reason: string }>;

export type VerifierCache = Map<string, { stamp: number; verify: ClaimsVerifier }>;

export function createVerifierCache(): VerifierCache {
  return new Map();
}
