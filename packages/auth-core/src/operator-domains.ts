/**
 * An operator's verified-domain work for `@tessera/auth-core/operator` (`tessera orgs domains`):
 * the same services as the organization endpoints (features/sso-domains), so every rule holds —
 * the consumer list, one verifying organization, the proof — with the operator recorded as actor.
 */
import type { OrganizationDomain } from "./contracts/sso-domains.ts";
import type { Auth } from "./create-auth.ts";
import type { OrganizationDoc } from "./db/documents.ts";
import { AuthError } from "./errors/auth-error.ts";
import { answerRefusal } from "./errors/refusal.ts";
import {
  claimDomain,
  type DomainActor,
  listDomains,
  removeDomain,
  toOrganizationDomain,
  verifyDomain,
} from "./features/sso-domains/index.ts";

export type { OrganizationDomain } from "./contracts/sso-domains.ts";

/** Refusals are AuthErrors (catalogue code and message), as from auth.api. */
export function createOperatorDomains(auth: Auth, actor: string) {
  const context = auth.context;
  const by: DomainActor = { userId: null, actor, ip: null, userAgent: null };
  return {
    async add(org: OrganizationDoc, domain: string): Promise<OrganizationDomain> {
      return toOrganizationDomain(answerRefusal(await claimDomain(context, org._id, domain, by)));
    },
    /** DOMAIN_PROOF_NOT_FOUND until the TXT record or file is published. */
    async verify(org: OrganizationDoc, domain: string): Promise<OrganizationDomain> {
      return toOrganizationDomain(answerRefusal(await verifyDomain(context, org._id, domain, by)));
    },
    async list(org: OrganizationDoc): Promise<OrganizationDomain[]> {
      return (await listDomains(context, org._id)).map(toOrganizationDomain);
    },
    async remove(org: OrganizationDoc, domain: string): Promise<{ domain: string }> {
      const removed = await removeDomain(context, org._id, domain, by);
      if (!removed.ok) throw new AuthError(removed.code);
      return { domain: removed.value.domain };
    },
  };
}
