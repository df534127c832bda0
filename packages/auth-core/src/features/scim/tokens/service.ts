import type { AuthContext } from "../../../context.ts";
import type { GeneratedScimToken, ScimConnection } from "../../../contracts/scim-tokens.ts";
import { generateRandomString, sha256Base64Url } from "../../../crypto/random.ts";
import type { ScimTokenDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import { granted, type Outcome, refused } from "../../../errors/refusal.ts";
import { recordOrganizationChange } from "../../admin/index.ts";
import type { DomainActor } from "../../sso-domains/index.ts";
import * as store from "./store.ts";

/**
 * SCIM connection tokens (docs/security.md "SCIM"): made, listed, revoked by an organization's owner
 * or admin; each SCIM request finds its organization by the token's hash.
 */

/** What every SCIM token starts with, so secret scanners and people recognise one. */
const SCIM_TOKEN_PREFIX = "scim_";

/** The stored form: SHA-256, base64url; looked up by hash, never compared in clear. */
function hashScimToken(token: string): string {
  return sha256Base64Url(token);
}

function toScimConnection(doc: ScimTokenDoc): ScimConnection {
  return {
    id: doc._id.toHexString(),
    organizationId: doc.organizationId.toHexString(),
    providerId: doc.providerId,
    createdAt: doc.createdAt,
  };
}

export async function generateScimToken(
  auth: AuthContext,
  organizationId: ObjectId,
  providerId: string,
  by: DomainActor,
): Promise<GeneratedScimToken> {
  // 43 characters of 62: ~256 bits, as a session token's entropy or more.
  const scimToken = `${SCIM_TOKEN_PREFIX}${generateRandomString(43)}`;
  const doc: ScimTokenDoc = {
    _id: new ObjectId(),
    organizationId,
    providerId,
    tokenHash: hashScimToken(scimToken),
    createdBy: by.userId,
    createdAt: auth.now(),
  };
  const previous = await store.replaceScimToken(auth.collections, doc);
  await record(
    auth,
    "organization.scim-token-create",
    doc,
    by,
    previous ? { replaced: previous._id.toHexString() } : {},
  );
  return { ...toScimConnection(doc), scimToken };
}

export async function listScimConnections(
  auth: AuthContext,
  organizationId: ObjectId,
): Promise<ScimConnection[]> {
  return (await store.listScimTokens(auth.collections, organizationId)).map(toScimConnection);
}

export async function revokeScimToken(
  auth: AuthContext,
  organizationId: ObjectId,
  providerId: string,
  by: DomainActor,
): Promise<Outcome<ScimTokenDoc, "SCIM_CONNECTION_NOT_FOUND">> {
  const removed = await store.deleteScimToken(auth.collections, organizationId, providerId);
  if (!removed) return refused("SCIM_CONNECTION_NOT_FOUND");
  await record(auth, "organization.scim-token-revoke", removed, by);
  return granted(removed);
}

/** The connection a presented bearer token belongs to; null for an unknown or revoked token. */
export function findScimConnection(auth: AuthContext, token: string): Promise<ScimTokenDoc | null> {
  if (!token.startsWith(SCIM_TOKEN_PREFIX) || token.length > 256) return Promise.resolve(null);
  return store.findScimTokenByHash(auth.collections, hashScimToken(token));
}

function record(
  auth: AuthContext,
  action: "organization.scim-token-create" | "organization.scim-token-revoke",
  doc: ScimTokenDoc,
  by: DomainActor,
  details: Record<string, unknown> = {},
): Promise<void> {
  const token = { providerId: doc.providerId, tokenId: doc._id.toHexString() };
  return recordOrganizationChange(auth, action, doc.organizationId, by, { ...token, ...details });
}
