import type { Collections } from "../../db/collections.ts";
import {
  consumeVerification,
  deleteVerification,
  findVerification,
  insertVerificationIfAbsent,
} from "../../db/verifications.ts";

/**
 * The setup links' rows in `verifications` (owner: db/verifications.ts). Two per link:
 * - `sso-setup-token:<SHA-256 of the token>` → `<organization id>.<link id>`: the link in the mail,
 *   deleted when opened (single use; a delete count decides a race);
 * - `sso-setup-link:<organization id>` → the live link of the organization (its id and sender), one
 *   per organization (unique identifier): a new link replaces it, which revokes the earlier link
 *   whether or not it was opened, and the setup cookie is checked against it on every request.
 */

const TOKEN_PREFIX = "sso-setup-token:";
const LINK_PREFIX = "sso-setup-link:";

interface StoredSetupLink {
  linkId: string;
  createdBy: string;
  expiresAt: Date;
}

/**
 * Stores a new live link of the organization, replacing the one before. The token row goes in
 * first: a crash between the two writes leaves a token whose link is not live, which opens nothing.
 */
export async function replaceSetupLink(
  collections: Collections,
  input: { organizationId: string; linkId: string; tokenHash: string; createdBy: string },
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const { organizationId, linkId, tokenHash, createdBy } = input;
  await insertVerificationIfAbsent(
    collections,
    `${TOKEN_PREFIX}${tokenHash}`,
    `${organizationId}.${linkId}`,
    expiresAt,
    now,
  );
  const value = JSON.stringify({ linkId, createdBy });
  // Two owners creating links at once: one insert wins, the other deletes the winner's and retries.
  for (let attempt = 0; attempt < 3; attempt++) {
    await deleteVerification(collections, `${LINK_PREFIX}${organizationId}`);
    if (
      await insertVerificationIfAbsent(collections, `${LINK_PREFIX}${organizationId}`, value, expiresAt, now)
    )
      return true;
  }
  return false;
}

/** Consumes the token's row: the organization and link it names, or null (unknown, spent, expired). */
export async function consumeSetupToken(
  collections: Collections,
  tokenHash: string,
  now: Date,
): Promise<{ organizationId: string; linkId: string } | null> {
  const row = await consumeVerification(collections, `${TOKEN_PREFIX}${tokenHash}`, now);
  const [organizationId, linkId] = row?.value.split(".") ?? [];
  return organizationId && linkId ? { organizationId, linkId } : null;
}

/** The organization's live link, unexpired; null when there is none. */
export async function findLiveSetupLink(
  collections: Collections,
  organizationId: string,
  now: Date,
): Promise<StoredSetupLink | null> {
  const row = await findVerification(collections, `${LINK_PREFIX}${organizationId}`, now);
  if (!row) return null;
  const value = JSON.parse(row.value) as { linkId?: unknown; createdBy?: unknown };
  if (typeof value.linkId !== "string" || typeof value.createdBy !== "string") return null;
  return { linkId: value.linkId, createdBy: value.createdBy, expiresAt: row.expiresAt };
}
