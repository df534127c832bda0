import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { OrganizationDomainDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { recentReads } from "../../db/recent-reads.ts";

/**
 * The owner of `organizationDomains` (docs/architecture.md "One owner per collection"). Indexes:
 * db/migrations/0013-organization-domains.ts — `verifiedKey` unique (one organization verifies a
 * domain), (organizationId, domain) unique (one claim per organization and domain).
 */

export type DomainSettings = OrganizationDomainDoc["settings"];

/** "claimed" by this organization already (the unique index decides a race of two adds). */
export async function insertDomainClaim(
  collections: Collections,
  doc: OrganizationDomainDoc,
): Promise<"stored" | "claimed"> {
  try {
    await recentPolicies.writing(collections, () => collections.organizationDomains.insertOne(doc));
    return "stored";
  } catch (error) {
    if (isDuplicateKeyError(error)) return "claimed";
    throw error;
  }
}

/**
 * A lapsed pending claim of the same organization starts again with a new token and expiry (the
 * compare-and-set on `expiresAt` lets one of two concurrent re-adds through). Null when the row is
 * no longer a lapsed claim.
 */
export function renewLapsedClaim(
  collections: Collections,
  id: ObjectId,
  now: Date,
  fields: { token: string; createdAt: Date; expiresAt: Date },
): Promise<OrganizationDomainDoc | null> {
  return recentPolicies.writing(collections, () =>
    collections.organizationDomains.findOneAndUpdate(
      { _id: id, status: "pending", expiresAt: { $lte: now } },
      { $set: fields },
      { returnDocument: "after" },
    ),
  );
}

export function findOrganizationDomain(
  collections: Collections,
  organizationId: ObjectId,
  domain: string,
): Promise<OrganizationDomainDoc | null> {
  return collections.organizationDomains.findOne({ organizationId, domain });
}

/** The organization's claims, oldest first (bounded by the per-organization limit). */
export function listOrganizationDomains(
  collections: Collections,
  organizationId: ObjectId,
): Promise<OrganizationDomainDoc[]> {
  return collections.organizationDomains.find({ organizationId }).sort({ createdAt: 1, _id: 1 }).toArray();
}

/** Whether a domain of the organization requires SSO, pending or verified (organizationId index). */
export async function hasDomainRequiringSso(
  collections: Collections,
  organizationId: ObjectId,
): Promise<boolean> {
  const found = await collections.organizationDomains.findOne(
    { organizationId, "settings.requireSso": true },
    { projection: { _id: 1 } },
  );
  return found !== null;
}

export function countOrganizationDomains(
  collections: Collections,
  organizationId: ObjectId,
): Promise<number> {
  return collections.organizationDomains.countDocuments({ organizationId });
}

/** The row holding the domain as verified: one indexed read (`verifiedKey` unique). */
export function findVerifiedDomainRow(
  collections: Collections,
  domain: string,
): Promise<OrganizationDomainDoc | null> {
  return collections.organizationDomains.findOne({ verifiedKey: domain });
}

/**
 * What this instance read of domains' verified rows (db/recent-reads.ts): every sign-in path asks
 * which organization verified the address's domain and what it requires (require SSO, auto-join,
 * home-realm discovery), the same few domains over and over — a code sign-in asked twice, two of
 * its eleven database commands. Every write below goes through `writing`.
 */
const recentPolicies = recentReads<OrganizationDomainDoc | null>();

/**
 * findVerifiedDomainRow for sign-in paths: what this instance read of the domain less than
 * RECENT_READ_MS ago (null too), else one indexed read. Read-only: callers share the object.
 * Claiming and verifying a domain read the database itself (findVerifiedDomainRow).
 */
export function findVerifiedDomainRowRecent(
  collections: Collections,
  domain: string,
): Promise<OrganizationDomainDoc | null> {
  return recentPolicies.read(collections, domain, () => findVerifiedDomainRow(collections, domain));
}

/**
 * Pending → verified, only while the claim is still pending and unexpired (compare-and-set). The
 * `verifiedKey` unique index lets one organization hold the domain: "taken" when another holds it.
 * "lost": the claim changed meanwhile (removed, lapsed, verified by a concurrent call).
 */
export async function markDomainVerified(
  collections: Collections,
  doc: OrganizationDomainDoc,
  now: Date,
  method: NonNullable<OrganizationDomainDoc["method"]>,
): Promise<{ result: "verified"; doc: OrganizationDomainDoc } | { result: "taken" | "lost" }> {
  try {
    const updated = await recentPolicies.writing(collections, () =>
      collections.organizationDomains.findOneAndUpdate(
        { _id: doc._id, status: "pending", expiresAt: { $gt: now } },
        {
          $set: { status: "verified", verifiedKey: doc.domain, method, verifiedAt: now, expiresAt: null },
        },
        { returnDocument: "after" },
      ),
    );
    return updated ? { result: "verified", doc: updated } : { result: "lost" };
  } catch (error) {
    if (isDuplicateKeyError(error)) return { result: "taken" };
    throw error;
  }
}

export async function deleteDomainRow(collections: Collections, id: ObjectId): Promise<boolean> {
  const deleted = await recentPolicies.writing(collections, () =>
    collections.organizationDomains.deleteOne({ _id: id }),
  );
  return deleted.deletedCount === 1;
}

export function setDomainSettings(
  collections: Collections,
  id: ObjectId,
  settings: DomainSettings,
): Promise<OrganizationDomainDoc | null> {
  return recentPolicies.writing(collections, () =>
    collections.organizationDomains.findOneAndUpdate(
      { _id: id },
      { $set: { settings } },
      { returnDocument: "after" },
    ),
  );
}
