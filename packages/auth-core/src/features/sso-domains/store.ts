import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { OrganizationDomainDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";

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
    await changingPolicies(collections, () => collections.organizationDomains.insertOne(doc));
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
  return changingPolicies(collections, () =>
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
 * How long an instance answers a sign-in's question "which organization verified this domain, and
 * what does it require" from what it last read (docs/security.md "Verified domains"). Every sign-in
 * path asks it (require SSO, auto-join, home-realm discovery), the same few domains over and over:
 * a code sign-in asked it twice, two of its eleven database commands. A change made through this
 * instance is seen at once (every write below forgets what was read); one made through another
 * instance or the CLI's process is seen within this second.
 * @internal Exported for its test (domain-memo.test.ts).
 */
export const DOMAIN_POLICY_MEMO_MS = 1_000;
/** Domains remembered per instance at most; the oldest read is forgotten first. */
const DOMAIN_POLICY_MEMO_ENTRIES = 10_000;

interface DomainPolicyMemo {
  /** Bumped by every write: a read that started before one does not store what it read. */
  generation: number;
  rows: Map<string, { row: OrganizationDomainDoc | null; until: number }>;
}

// Keyed by the instance's collections (one per createAuth), so instances never share what they read.
const policyMemos = new WeakMap<Collections, DomainPolicyMemo>();

function policyMemoOf(collections: Collections): DomainPolicyMemo {
  let memo = policyMemos.get(collections);
  if (!memo) {
    memo = { generation: 0, rows: new Map() };
    policyMemos.set(collections, memo);
  }
  return memo;
}

/**
 * Forgets what the instance read of every domain. Its writes below do it themselves.
 * @internal Exported for the tests' command counts (tests/support/test-auth.ts), which count a
 * request as if no domain had been read before it.
 */
export function forgetDomainPolicies(collections: Collections): void {
  const memo = policyMemos.get(collections);
  if (!memo) return;
  memo.generation++;
  memo.rows.clear();
}

/**
 * Every write of `organizationDomains` goes through here: what was read is forgotten before it
 * starts and again once it has answered, so no read that overlaps the write is remembered.
 */
async function changingPolicies<T>(collections: Collections, write: () => Promise<T>): Promise<T> {
  forgetDomainPolicies(collections);
  try {
    return await write();
  } finally {
    forgetDomainPolicies(collections);
  }
}

/**
 * findVerifiedDomainRow for sign-in paths: the row this instance read less than
 * DOMAIN_POLICY_MEMO_MS ago (null remembered too), else one indexed read. Read-only: callers share
 * the object. Claiming and verifying a domain read the database itself (findVerifiedDomainRow).
 */
export async function findVerifiedDomainRowRecent(
  collections: Collections,
  domain: string,
): Promise<OrganizationDomainDoc | null> {
  const memo = policyMemoOf(collections);
  const started = performance.now();
  const remembered = memo.rows.get(domain);
  if (remembered && remembered.until > started) return remembered.row;
  const generation = memo.generation;
  const row = await findVerifiedDomainRow(collections, domain);
  if (memo.generation === generation) {
    memo.rows.delete(domain);
    if (memo.rows.size >= DOMAIN_POLICY_MEMO_ENTRIES) {
      const oldest = memo.rows.keys().next().value;
      if (oldest !== undefined) memo.rows.delete(oldest);
    }
    memo.rows.set(domain, { row, until: started + DOMAIN_POLICY_MEMO_MS });
  }
  return row;
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
    const updated = await changingPolicies(collections, () =>
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
  const deleted = await changingPolicies(collections, () =>
    collections.organizationDomains.deleteOne({ _id: id }),
  );
  return deleted.deletedCount === 1;
}

export function setDomainSettings(
  collections: Collections,
  id: ObjectId,
  settings: DomainSettings,
): Promise<OrganizationDomainDoc | null> {
  return changingPolicies(collections, () =>
    collections.organizationDomains.findOneAndUpdate(
      { _id: id },
      { $set: { settings } },
      { returnDocument: "after" },
    ),
  );
}
