/**
 * The face of sso-domains (docs/security.md "Verified domains"): what other features, create-auth.ts
 * and the operator API may use (endpoints: endpoints/, registered by features/registry.ts).
 */
import type { Collections } from "../../db/collections.ts";
import type { OrganizationDomainDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { normalizeDomain } from "./rules.ts";
import { findVerifiedDomainRowRecent } from "./store.ts";

export { joinVerifiedDomainOrganization } from "./auto-join.ts";
export { requireDomainManager } from "./endpoints/guards.ts";
export { assertSignInWithoutSso } from "./endpoints/sso-required.ts";
export type { DomainPolicy } from "./require-sso.ts";
export { emailDomainOf, normalizeDomain } from "./rules.ts";
/** The operator API (operator-domains.ts: `tessera orgs domains`) runs the endpoints' services. */
export {
  claimDomain,
  type DomainActor,
  listDomains,
  removeDomain,
  verifyDomain,
} from "./service.ts";
/**
 * Whether the organization requires SSO for a domain of its own (a pending claim's setting counts:
 * it applies once proven). features/sso asks before its last connection is turned off or deleted.
 */
export { hasDomainRequiringSso } from "./store.ts";
export { toOrganizationDomain } from "./types.ts";

interface VerifiedDomain {
  organizationId: ObjectId;
  settings: OrganizationDomainDoc["settings"];
}

/**
 * The organization that verified `domain` (any case, IDN or punycode, trailing dot or not) and its
 * settings; null when no organization has proven it — a pending claim never counts. At most one
 * indexed read (`verifiedKey` unique; store.ts findVerifiedDomainRowRecent: what this instance read in
 * the last second serves): home-realm discovery and SSO sign-in (features/sso) ask it per request.
 */
export async function findVerifiedDomain(
  collections: Collections,
  domain: string,
): Promise<VerifiedDomain | null> {
  const normalized = normalizeDomain(domain);
  const row = normalized === null ? null : await findVerifiedDomainRowRecent(collections, normalized);
  return row ? { organizationId: row.organizationId, settings: row.settings } : null;
}
