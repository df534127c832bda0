import type { AuthContext } from "../../../context.ts";
import type { SsoProviderDoc } from "../../../db/documents.ts";
import { granted, type Outcome, refused } from "../../../errors/refusal.ts";
import { type SsoRequest, signInSsoUser } from "../jit.ts";
import type { MappedIdentity } from "../rules.ts";
import { findSsoProviderRecent } from "../store.ts";
import { mapSamlAssertion } from "./map-assertion.ts";
import {
  acceptSamlResponse,
  createSpMetadata,
  readSamlConnection,
  type SamlSignInTargets,
} from "./service.ts";

/** A SAML connection by providerId; an OIDC one is not found here. */
export async function findSamlProvider(
  auth: AuthContext,
  providerId: string,
): Promise<Outcome<SsoProviderDoc, "SSO_PROVIDER_NOT_FOUND">> {
  const provider = await findSsoProviderRecent(auth.collections, providerId);
  return provider?.type === "saml" ? granted(provider) : refused("SSO_PROVIDER_NOT_FOUND");
}

/** The SP metadata of a SAML connection (service.ts createSpMetadata). */
export function readSpMetadata(auth: AuthContext, provider: SsoProviderDoc): string {
  return createSpMetadata(auth, { ...provider, samlConfig: provider.samlConfig ?? { entryPoint: "" } });
}

/** A verified SAML sign-in, ready for the connection's just-in-time sign-in. */
interface SamlIdentity {
  provider: SsoProviderDoc;
  identity: MappedIdentity & { id: string; email: string };
  targets: SamlSignInTargets;
}

/**
 * The ACS up to the user: the connection (enabled, complete), the response's checks
 * (service.ts acceptSamlResponse), and the user's fields as the connection maps them.
 */
async function verifySamlSignIn(
  auth: AuthContext,
  providerId: string,
  form: { SAMLResponse: string; RelayState?: string | undefined },
): Promise<Outcome<SamlIdentity>> {
  const found = await findSamlProvider(auth, providerId);
  if (!found.ok) return found;
  const provider = found.value;
  if (!provider.enabled) return refused("SSO_PROVIDER_DISABLED");
  const connection = readSamlConnection(auth, provider);
  if (!connection) return refused("SAML_CONFIG_INCOMPLETE");
  const accepted = await acceptSamlResponse(auth, connection, form);
  if (!accepted.ok) return accepted;
  const { assertion, targets } = accepted.value;
  const identity = mapSamlAssertion(assertion, provider.mapping);
  if (!identity.email) return refused("SSO_EMAIL_MISSING");
  if (!identity.id) return refused("INVALID_SAML_RESPONSE");
  return granted({ provider, identity: { ...identity, id: identity.id, email: identity.email }, targets });
}

/** A SAML sign-in carries no OAuth tokens: its account keeps none. */
const NO_TOKENS = {
  accessToken: null,
  refreshToken: null,
  idToken: null,
  accessTokenExpiresAt: null,
  refreshTokenExpiresAt: null,
  scopes: [],
  tokenType: null,
};

/**
 * The ACS: a verified response signs its user in through the connection's just-in-time sign-in
 * (jit.ts: user, membership, the one session pipeline, audit), the same as OIDC's. Answers where
 * the browser goes: the sign-in's callbackURL (newUserCallbackURL for a new user), or the
 * second-factor page first when one is due.
 */
export async function completeSamlSignIn(
  auth: AuthContext,
  request: SsoRequest,
  providerId: string,
  form: { SAMLResponse: string; RelayState?: string | undefined },
): Promise<Outcome<string>> {
  const verified = await verifySamlSignIn(auth, providerId, form);
  if (!verified.ok) return verified;
  const { provider, identity, targets } = verified.value;
  const signedIn = await signInSsoUser(auth, request, provider, identity, {
    tokens: NO_TOKENS,
    language: targets.language,
  });
  if (!signedIn.ok) return signedIn;
  const callbackURL =
    targets.callbackURL ?? (auth.options.baseURL ? `${new URL(auth.options.baseURL).origin}/` : "/");
  const destination = signedIn.value.isNewUser ? (targets.newUserCallbackURL ?? callbackURL) : callbackURL;
  return granted(signedIn.value.twoFactorURL?.(destination) ?? destination);
}
