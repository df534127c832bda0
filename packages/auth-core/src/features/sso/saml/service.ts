import { randomBytes } from "node:crypto";
import { generateServiceProviderMetadata } from "@node-saml/node-saml";
import { z } from "zod";
import type { AuthContext } from "../../../context.ts";
import { granted, type Outcome, refused } from "../../../errors/refusal.ts";
import { consumeVerification, createVerification } from "../../verification/index.ts";
import { type SamlConnection, type StoredSamlConfig, samlAcsUrl, toSamlConnection } from "./connection.ts";
import { recordAssertionUse } from "./replay-store.ts";
import { isSameAppPath, SAML_REQUEST_LIFETIME_SECONDS } from "./rules.ts";
import { createSamlClient, type VerifiedAssertion, verifySamlResponse } from "./verify-response.ts";

/** A stored connection as the SAML service reads it (SsoProviderDoc fits). */
export interface SamlProviderRecord {
  providerId: string;
  issuer: string;
  samlConfig: StoredSamlConfig | null;
}

/** Where a sign-in goes once the IdP answers: the fields /sign-in/sso took (checked by the safe-redirect rule there). */
export interface SamlSignInTargets {
  callbackURL: string | null;
  errorCallbackURL: string | null;
  newUserCallbackURL: string | null;
  /** The `language` of /sign-in/sso, for a user this sign-in creates. */
  language: string | null;
}

/**
 * The AuthnRequest IDs we issued, one verification row each (`saml-request:{id}`, 10 minutes),
 * consumed by the response that names it: the InResponseTo check (SAML profiles §4.1.4.3), shared by
 * every instance of the app, and one use only.
 */
const REQUEST_PREFIX = "saml-request:";

const pendingRequestSchema = z.object({
  providerId: z.string(),
  callbackURL: z.string().nullable(),
  errorCallbackURL: z.string().nullable(),
  newUserCallbackURL: z.string().nullable(),
  language: z.string().nullable(),
});
type PendingRequest = z.infer<typeof pendingRequestSchema>;

/** The connection of a stored provider; null when its samlConfig lacks the IdP's entity ID or certificate. */
export function readSamlConnection(auth: AuthContext, provider: SamlProviderRecord): SamlConnection | null {
  if (!provider.samlConfig) return null;
  return toSamlConnection({ ...provider, samlConfig: provider.samlConfig }, auth.apiURL);
}

/**
 * Starts an SP-initiated sign-in: the IdP URL carrying our AuthnRequest (HTTP-Redirect binding),
 * whose ID is kept for the response to name. Null when the connection is incomplete.
 */
export async function createSamlSignInURL(
  auth: AuthContext,
  provider: SamlProviderRecord,
  targets: SamlSignInTargets,
): Promise<string | null> {
  const connection = readSamlConnection(auth, provider);
  if (!connection) return null;
  // An xs:ID: a letter or underscore first; 160 random bits.
  const requestId = `_${randomBytes(20).toString("hex")}`;
  const now = auth.now();
  const pending: PendingRequest = { providerId: connection.providerId, ...targets };
  const expiresAt = new Date(now.getTime() + SAML_REQUEST_LIFETIME_SECONDS * 1000);
  await createVerification(
    auth.collections,
    `${REQUEST_PREFIX}${requestId}`,
    JSON.stringify(pending),
    expiresAt,
    now,
  );
  const client = createSamlClient(connection);
  client.options.generateUniqueId = () => requestId;
  return client.getAuthorizeUrlAsync("", undefined, {});
}

/**
 * The SP metadata of a connection: our entity ID and ACS URL (HTTP-POST), whether we want signed
 * assertions. Only our side: an IT admin gives it to the IdP before the IdP's certificate is known.
 */
export function createSpMetadata(
  auth: AuthContext,
  provider: SamlProviderRecord & { samlConfig: StoredSamlConfig },
): string {
  const spEntityId = provider.samlConfig.spMetadata?.entityID ?? provider.issuer;
  return generateServiceProviderMetadata({
    issuer: spEntityId,
    callbackUrl: samlAcsUrl(auth.apiURL, provider.providerId),
    wantAssertionsSigned: provider.samlConfig.wantAssertionsSigned ?? true,
    identifierFormat: provider.samlConfig.identifierFormat ?? null,
  });
}

/** What a verified response says about the user, and where the browser goes next. */
export interface SamlSignIn {
  assertion: VerifiedAssertion;
  targets: SamlSignInTargets;
  /** True for an IdP-initiated response (its RelayState is the callbackURL). */
  idpInitiated: boolean;
}

/**
 * The ACS's checks, in order (docs/security.md "SAML"): the response itself (verify-response.ts),
 * then that it answers a request of ours made for this connection — or, for an IdP-initiated one,
 * that the connection allows those and its RelayState is a path of this app —, then that its
 * assertion ID was never used. Nothing is written before the response is verified.
 */
export async function acceptSamlResponse(
  auth: AuthContext,
  connection: SamlConnection,
  form: { SAMLResponse: string; RelayState?: string | undefined },
): Promise<Outcome<SamlSignIn>> {
  const now = auth.now();
  const verified = await verifySamlResponse(connection, form.SAMLResponse, now);
  if (!verified.ok) return verified;
  const assertion = verified.value;
  let targets: SamlSignInTargets;
  if (assertion.inResponseTo === null) {
    if (!connection.allowIdpInitiated) return refused("SAML_IDP_INITIATED_NOT_ALLOWED");
    const relayState = form.RelayState || null;
    if (relayState !== null && !isSameAppPath(relayState, (url) => auth.origins.isAllowedCallbackURL(url)))
      return refused("INVALID_REDIRECT_URL");
    targets = { callbackURL: relayState, errorCallbackURL: null, newUserCallbackURL: null, language: null };
  } else {
    const pending = await consumePendingRequest(auth, assertion.inResponseTo, now);
    // A request made for another connection is not this one's: its IdP answered elsewhere.
    if (!pending || pending.providerId !== connection.providerId) return refused("SAML_REQUEST_UNKNOWN");
    const { providerId: _, ...fromRequest } = pending;
    targets = fromRequest;
  }
  const firstUse = await recordAssertionUse(
    auth.collections,
    {
      issuer: assertion.issuer,
      assertionId: assertion.assertionId,
      providerId: connection.providerId,
      expiresAt: assertion.usableUntil,
    },
    now,
  );
  if (!firstUse) return refused("SAML_ASSERTION_REPLAYED");
  return granted({ assertion, targets, idpInitiated: assertion.inResponseTo === null });
}

async function consumePendingRequest(
  auth: AuthContext,
  requestId: string,
  now: Date,
): Promise<PendingRequest | null> {
  const row = await consumeVerification(auth.collections, `${REQUEST_PREFIX}${requestId}`, now);
  if (!row) return null;
  try {
    const parsed = pendingRequestSchema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
