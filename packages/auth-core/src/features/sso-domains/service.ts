import type { AuthContext } from "../../context.ts";
import type { AuditAction } from "../../contracts/admin-fields.ts";
import { generateRandomString, LOWER_ALPHANUMERIC } from "../../crypto/random.ts";
import type { OrganizationDomainDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import type { ErrorCode } from "../../errors/catalogue.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { type OrganizationActor, recordOrganizationChange } from "../admin/index.ts";
import { findOrganization, roleTableOf } from "../organization/index.ts";
import { findPublishedProof } from "./proof.ts";
import { isAutoJoinRoleAllowed, isClaimableDomain, isClaimLapsed, normalizeDomain } from "./rules.ts";
import * as store from "./store.ts";

/**
 * An organization's claimed domains (docs/security.md "Verified domains"): claim, prove, list,
 * remove, settings. Answers the row or a refusal value; endpoints and the operator turn refusals
 * into catalogue errors. Every change is an audit event.
 */

/** The most domains one organization may claim (pending and verified together). */
const MAX_DOMAINS_PER_ORGANIZATION = 50;

/** Who acts, for the audit trail: a member's user id, or an operator (`cli:alice`). */
export type DomainActor = OrganizationActor;

type Found<R extends ErrorCode> = Outcome<OrganizationDomainDoc, R | "INVALID_DOMAIN" | "DOMAIN_NOT_FOUND">;

export async function claimDomain(
  auth: AuthContext,
  organizationId: ObjectId,
  input: string,
  by: DomainActor,
): Promise<
  Outcome<
    OrganizationDomainDoc,
    | "INVALID_DOMAIN"
    | "DOMAIN_NOT_CLAIMABLE"
    | "DOMAIN_ALREADY_CLAIMED"
    | "DOMAIN_LIMIT_REACHED"
    | "DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION"
  >
> {
  const domain = normalizeDomain(input);
  if (domain === null) return refused("INVALID_DOMAIN");
  if (!isClaimableDomain(domain)) return refused("DOMAIN_NOT_CLAIMABLE");
  const now = auth.now();
  const expiresAt = new Date(now.getTime() + auth.options.sso.domainVerification.claimTtlSeconds * 1000);
  const existing = await store.findOrganizationDomain(auth.collections, organizationId, domain);
  if (existing) {
    // The organization's own lapsed claim starts over with a new token (nothing else could use it).
    const renewed = isClaimLapsed(existing, now)
      ? await store.renewLapsedClaim(auth.collections, existing._id, now, {
          token: newToken(),
          createdAt: now,
          expiresAt,
        })
      : null;
    if (!renewed) return refused("DOMAIN_ALREADY_CLAIMED");
    await record(auth, "organization.domain-claim", renewed, by, { renewed: true });
    return granted(await trustDeclared(auth, renewed));
  }
  const holder = await findVerifiedHolder(auth, domain);
  if (holder && !holder.organizationId.equals(organizationId))
    return refused("DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION");
  if (
    (await store.countOrganizationDomains(auth.collections, organizationId)) >= MAX_DOMAINS_PER_ORGANIZATION
  )
    return refused("DOMAIN_LIMIT_REACHED");
  const _id = new ObjectId();
  const doc: OrganizationDomainDoc = {
    _id,
    organizationId,
    domain,
    token: newToken(),
    status: "pending",
    verifiedKey: `pending:${_id.toHexString()}`,
    method: null,
    settings: { autoJoin: false, autoJoinRole: "member", requireSso: false },
    createdAt: now,
    verifiedAt: null,
    expiresAt,
  };
  if ((await store.insertDomainClaim(auth.collections, doc)) === "claimed")
    return refused("DOMAIN_ALREADY_CLAIMED");
  await record(auth, "organization.domain-claim", doc, by);
  return granted(await trustDeclared(auth, doc));
}

/**
 * Checks the published proof and marks the claim verified: one organization at a time (the
 * `verifiedKey` unique index), only an unexpired pending claim (compare-and-set). Already verified
 * answers the row unchanged.
 */
export async function verifyDomain(
  auth: AuthContext,
  organizationId: ObjectId,
  input: string,
  by: DomainActor,
): Promise<
  Found<"DOMAIN_CLAIM_EXPIRED" | "DOMAIN_PROOF_NOT_FOUND" | "DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION">
> {
  const found = await findClaim(auth, organizationId, input);
  if (!found.ok) return found;
  const claim = found.value;
  if (claim.status === "verified") return granted(claim);
  if (isClaimLapsed(claim, auth.now())) return refused("DOMAIN_CLAIM_EXPIRED");
  const holder = await findVerifiedHolder(auth, claim.domain);
  if (holder && !holder.organizationId.equals(organizationId))
    return refused("DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION");
  const method = await findPublishedProof(auth, claim.domain, claim.token);
  if (method === null) return refused("DOMAIN_PROOF_NOT_FOUND");
  const marked = await store.markDomainVerified(auth.collections, claim, auth.now(), method);
  if (marked.result === "taken") return refused("DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION");
  if (marked.result !== "verified") {
    // Removed, lapsed or verified by a concurrent call meanwhile: answer what is there now.
    const current = await store.findOrganizationDomain(auth.collections, organizationId, claim.domain);
    if (!current) return refused("DOMAIN_NOT_FOUND");
    return current.status === "verified" ? granted(current) : refused("DOMAIN_CLAIM_EXPIRED");
  }
  await record(auth, "organization.domain-verify", marked.doc, by, { method });
  return granted(marked.doc);
}

export async function removeDomain(
  auth: AuthContext,
  organizationId: ObjectId,
  input: string,
  by: DomainActor,
): Promise<Found<never>> {
  const found = await findClaim(auth, organizationId, input);
  if (!found.ok) return found;
  if (!(await store.deleteDomainRow(auth.collections, found.value._id))) return refused("DOMAIN_NOT_FOUND");
  await record(auth, "organization.domain-remove", found.value, by, { status: found.value.status });
  return found;
}

export interface DomainSettingsChange {
  autoJoin?: boolean | undefined;
  autoJoinRole?: string | undefined;
  requireSso?: boolean | undefined;
}

/** Settings may be set while pending; they take effect once the domain is verified. */
export async function updateDomainSettings(
  auth: AuthContext,
  organizationId: ObjectId,
  input: string,
  change: DomainSettingsChange,
  by: DomainActor,
): Promise<Found<"AUTO_JOIN_ROLE_NOT_ALLOWED" | "SSO_CONNECTION_REQUIRED">> {
  const found = await findClaim(auth, organizationId, input);
  if (!found.ok) return found;
  const before = found.value.settings;
  const settings = {
    autoJoin: change.autoJoin ?? before.autoJoin,
    autoJoinRole: change.autoJoinRole ?? before.autoJoinRole,
    requireSso: change.requireSso ?? before.requireSso,
  };
  const { creatorRole } = auth.options.organization;
  if (!isAutoJoinRoleAllowed(settings.autoJoinRole, Object.keys(roleTableOf(auth)), creatorRole))
    return refused("AUTO_JOIN_ROLE_NOT_ALLOWED");
  // Turning require SSO on sends the domain's people to the organization's single sign-on: with no
  // connection turned on, every one of them but the owners would be locked out.
  if (
    settings.requireSso &&
    !before.requireSso &&
    !(await auth.hasSsoConnection(auth.collections, organizationId))
  )
    return refused("SSO_CONNECTION_REQUIRED");
  const updated = await store.setDomainSettings(auth.collections, found.value._id, settings);
  if (!updated) return refused("DOMAIN_NOT_FOUND");
  await record(auth, "organization.domain-settings", updated, by, { before, after: settings });
  return granted(updated);
}

export function listDomains(auth: AuthContext, organizationId: ObjectId): Promise<OrganizationDomainDoc[]> {
  return store.listOrganizationDomains(auth.collections, organizationId);
}

/**
 * The row verifying the domain, when its organization still exists. A row left by a deleted
 * organization is removed here, so it never locks the domain's real owner out.
 */
async function findVerifiedHolder(auth: AuthContext, domain: string): Promise<OrganizationDomainDoc | null> {
  const row = await store.findVerifiedDomainRow(auth.collections, domain);
  if (!row) return null;
  if (await findOrganization(auth, row.organizationId)) return row;
  await store.deleteDomainRow(auth.collections, row._id);
  return null;
}

async function findClaim(auth: AuthContext, organizationId: ObjectId, input: string): Promise<Found<never>> {
  const domain = normalizeDomain(input);
  if (domain === null) return refused("INVALID_DOMAIN");
  const claim = await store.findOrganizationDomain(auth.collections, organizationId, domain);
  return claim ? granted(claim) : refused("DOMAIN_NOT_FOUND");
}

/** `sso.trustDeclaredDomains` (development only): a new claim counts as verified at once. */
async function trustDeclared(auth: AuthContext, doc: OrganizationDomainDoc): Promise<OrganizationDomainDoc> {
  if (!auth.options.sso.trustDeclaredDomains) return doc;
  const marked = await store.markDomainVerified(auth.collections, doc, auth.now(), "declared");
  return marked.result === "verified" ? marked.doc : doc;
}

/** 32 characters of [0-9a-z]: about 165 bits, and valid in a DNS TXT value and a URL path. */
function newToken(): string {
  return generateRandomString(32, LOWER_ALPHANUMERIC);
}

function record(
  auth: AuthContext,
  action: AuditAction,
  doc: OrganizationDomainDoc,
  by: DomainActor,
  details: Record<string, unknown> = {},
): Promise<void> {
  return recordOrganizationChange(auth, action, doc.organizationId, by, { domain: doc.domain, ...details });
}
