import { createRemoteJWKSet, customFetch, decodeJwt, errors, type JWTPayload, jwtVerify } from "jose";
import { asRecord, type JsonRecord } from "./fields.ts";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "./http.ts";
import { type IdTokenCheck, type ProviderDeps, ProviderError, type ProviderProfile } from "./types.ts";

/**
 * OIDC id-token verification (OIDC Core §3.1.3.7): signature against the provider's
 * JWKS (fetched once, refetched when an unknown `kid` appears — key rotation — at most once per
 * cooldown), asymmetric algorithms only (no `none`, no HS256 keyed with a public key), the
 * provider's issuer, our client id (or a configured extra audience), expiry, and the nonce.
 */

/** Asymmetric only: a symmetric algorithm would let anyone holding the public key forge tokens. */
const ALLOWED_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
];
const DEFAULT_JWKS_COOLDOWN_MS = 30_000;
/** Provider clocks drift a little; an expired token stays expired. */
const CLOCK_TOLERANCE_SECONDS = 5;

export interface IdTokenVerifierConfig<P = ProviderProfile> {
  deps: ProviderDeps;
  jwksUrl: string;
  /** The exact expected `iss` values, or a check of the payload (Microsoft multi-tenant issuers). */
  issuer: string[] | ((issuer: string, claims: JWTPayload) => boolean);
  /** Our client id first, then configured extra audiences (native apps). */
  audiences: string[];
  toProfile(claims: JsonRecord): P | null;
  /**
   * When set, a token must carry `iat` and be at most this old (and not issued in the future):
   * a token replayed long after it was minted is refused. @default no `iat` check
   */
  maxTokenAgeSeconds?: number;
  /**
   * Whether the provider puts the requested nonce in its id tokens (OIDC Core §3.1.3.7 (11)). When
   * it does, a token without one is refused if a nonce was expected; when it does not (LinkedIn),
   * only a token carrying a different nonce is. A token carrying a nonce always needs the same one.
   */
  echoesNonce: boolean;
}

type Reason = Extract<IdTokenCheck, { ok: false }>["reason"];

function reasonFor(error: unknown): Reason | null {
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "wrong_audience";
    if (error.claim === "iss") return "wrong_issuer";
    return "malformed";
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  ) {
    return "invalid_signature";
  }
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid) return "malformed";
  return null;
}

/**
 * Returns a verifier for one provider. Refusals are results; a JWKS that cannot be fetched is a
 * provider outage and throws ProviderError (the caller answers 5xx, not "invalid token").
 */
export function createIdTokenVerifier<P = ProviderProfile>(config: IdTokenVerifierConfig<P>) {
  const fetchJwks = (url: string, init: RequestInit) =>
    config.deps.fetch(url, {
      ...init,
      signal: AbortSignal.timeout(config.deps.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS),
    });
  const jwks = createRemoteJWKSet(new URL(config.jwksUrl), {
    cooldownDuration: config.deps.jwksCooldownMs ?? DEFAULT_JWKS_COOLDOWN_MS,
    timeoutDuration: config.deps.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
    [customFetch]: fetchJwks,
  });
  const fixedIssuers = Array.isArray(config.issuer) ? config.issuer : undefined;

  return async function verifyIdToken(idToken: string, nonce: string | undefined): Promise<IdTokenCheck<P>> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, jwks, {
        algorithms: ALLOWED_ALGORITHMS,
        audience: config.audiences,
        ...(fixedIssuers ? { issuer: fixedIssuers } : {}),
        requiredClaims: ["sub", "exp", "iss", "aud"],
        currentDate: config.deps.now(),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        ...(config.maxTokenAgeSeconds === undefined ? {} : { maxTokenAge: config.maxTokenAgeSeconds }),
      }));
    } catch (error) {
      const reason = reasonFor(error);
      if (reason === null)
        throw new ProviderError("id token keys could not be loaded", null, null, { cause: error });
      return { ok: false, reason };
    }
    if (typeof config.issuer === "function" && !config.issuer(String(payload.iss), payload)) {
      return { ok: false, reason: "wrong_issuer" };
    }
    // A token minted for a transaction (it carries a nonce) is only accepted with that transaction's nonce.
    const expectsEcho = nonce !== undefined && config.echoesNonce;
    if ((expectsEcho || payload.nonce !== undefined) && payload.nonce !== nonce) {
      return { ok: false, reason: "wrong_nonce" };
    }
    const profile = config.toProfile(payload as JsonRecord);
    return profile ? { ok: true, profile } : { ok: false, reason: "malformed" };
  };
}

/**
 * The claims of an id token received straight from the provider's token endpoint over TLS, which
 * OIDC Core §3.1.3.7 (6) accepts in place of a signature check. Never use it for a token a client
 * hands us: that goes through createIdTokenVerifier. Null when it does not parse.
 */
export function readTokenEndpointIdToken(idToken: string | null): JsonRecord | null {
  if (idToken === null) return null;
  try {
    return asRecord(decodeJwt(idToken));
  } catch {
    return null;
  }
}
