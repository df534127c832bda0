import { z } from "zod";
import { defineContract } from "./contract.ts";
import { idField } from "./organization-fields.ts";

/**
 * An organization's verified domains (docs/security.md "Verified domains"): claim a domain, publish
 * the proof, verify, and choose what the verified domain does (auto-join, require SSO). Better Auth
 * verifies a domain per SSO provider (/sso/request-domain-verification, /sso/verify-domain, through
 * its connection); here a domain belongs to the organization, whatever its connections.
 */

export const DOMAIN_STATUSES = ["pending", "verified"] as const;
export const DOMAIN_METHODS = ["dns", "http", "declared"] as const;

export interface DomainSettings {
  /** New users whose verified address is of the domain become members with autoJoinRole. */
  autoJoin: boolean;
  autoJoinRole: string;
  /** Password, mailed-link/code and social sign-in of the domain's addresses are refused. */
  requireSso: boolean;
}

/** What to publish, one of the two; null once verified. */
export interface DomainProof {
  /** DNS: a TXT record on this name… */
  txtName: string;
  /** …with this value. */
  txtValue: string;
  /** HTTPS: a file at this URL (always https://<domain>)… */
  fileURL: string;
  /** …whose body is this. */
  fileBody: string;
}

export interface OrganizationDomain {
  id: string;
  organizationId: string;
  /** Lower case, ASCII (IDNA punycode), no trailing dot. */
  domain: string;
  status: (typeof DOMAIN_STATUSES)[number];
  /** How it was proven; null while pending. "declared": sso.trustDeclaredDomains (development). */
  method: (typeof DOMAIN_METHODS)[number] | null;
  settings: DomainSettings;
  createdAt: Date;
  verifiedAt: Date | null;
  /** When a pending claim lapses; null once verified. */
  expiresAt: Date | null;
  proof: DomainProof | null;
}

const settingsSchema: z.ZodType<DomainSettings> = z.strictObject({
  autoJoin: z.boolean(),
  autoJoinRole: z.string(),
  requireSso: z.boolean(),
});

export const organizationDomainSchema: z.ZodType<OrganizationDomain> = z.strictObject({
  id: z.string(),
  organizationId: z.string(),
  domain: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  method: z.enum(DOMAIN_METHODS).nullable(),
  settings: settingsSchema,
  createdAt: z.date(),
  verifiedAt: z.date().nullable(),
  expiresAt: z.date().nullable(),
  proof: z
    .strictObject({ txtName: z.string(), txtValue: z.string(), fileURL: z.string(), fileBody: z.string() })
    .nullable(),
});

/** A domain as typed: checked and normalized by the handler (INVALID_DOMAIN), bounded here. */
const domainField = z.string().min(1).max(253);

const MEMBER_ERRORS = [
  "NO_ACTIVE_ORGANIZATION",
  "NOT_A_MEMBER_OF_ORGANIZATION",
  "ORGANIZATION_NOT_FOUND",
  "ORGANIZATION_UPDATE_NOT_ALLOWED",
] as const;

const domainBody = z.strictObject({ organizationId: idField.optional(), domain: domainField });

const WHO = "Owners and admins (who may update the organization) of the named or active organization.";

export const addDomainContract = defineContract({
  name: "addOrganizationDomain",
  method: "POST",
  path: "/organization/add-domain",
  auth: "session",
  body: domainBody,
  response: organizationDomainSchema,
  errors: [
    ...MEMBER_ERRORS,
    "INVALID_DOMAIN",
    "DOMAIN_NOT_CLAIMABLE",
    "DOMAIN_ALREADY_CLAIMED",
    "DOMAIN_LIMIT_REACHED",
    "DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION",
  ],
  summary: "Claims a domain for the organization and answers the proof to publish.",
  notes: `${WHO} The claim stays pending until verified and lapses after sso.domainVerification.claimTtlSeconds (7 days); adding a lapsed claim again gives a new token. Free-mail domains and public suffixes are refused.`,
  tags: ["organization", "sso"],
  client: "organization.addDomain",
});

export const verifyDomainContract = defineContract({
  name: "verifyOrganizationDomain",
  method: "POST",
  path: "/organization/verify-domain",
  auth: "session",
  body: domainBody,
  response: organizationDomainSchema,
  errors: [
    ...MEMBER_ERRORS,
    "INVALID_DOMAIN",
    "DOMAIN_NOT_FOUND",
    "DOMAIN_CLAIM_EXPIRED",
    "DOMAIN_PROOF_NOT_FOUND",
    "DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION",
  ],
  summary: "Looks for the published proof (TXT record, then HTTPS file) and verifies the domain.",
  notes: `${WHO} One organization verifies a domain: the first to prove it. An already verified domain answers as it is.`,
  tags: ["organization", "sso"],
  client: "organization.verifyDomain",
});

export const listDomainsContract = defineContract({
  name: "listOrganizationDomains",
  method: "GET",
  path: "/organization/list-domains",
  auth: "session",
  query: z.strictObject({ organizationId: idField.optional() }),
  response: z.array(organizationDomainSchema),
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION", "ORGANIZATION_NOT_FOUND"],
  summary: "The organization's claimed and verified domains, oldest first.",
  notes:
    "Any member of the named or active organization. Owners and admins (who may update the organization) see every claim with its proof; other members see the verified domains and their settings only.",
  tags: ["organization", "sso"],
  client: "organization.listDomains",
});

export const removeDomainContract = defineContract({
  name: "removeOrganizationDomain",
  method: "POST",
  path: "/organization/remove-domain",
  auth: "session",
  body: domainBody,
  response: z.strictObject({ domain: z.string() }),
  errors: [...MEMBER_ERRORS, "INVALID_DOMAIN", "DOMAIN_NOT_FOUND"],
  summary: "Removes a claimed or verified domain (its auto-join and require-SSO end with it).",
  notes: WHO,
  tags: ["organization", "sso"],
  client: "organization.removeDomain",
});

export const updateDomainSettingsContract = defineContract({
  name: "updateOrganizationDomainSettings",
  method: "POST",
  path: "/organization/update-domain-settings",
  auth: "session",
  body: z.strictObject({
    organizationId: idField.optional(),
    domain: domainField,
    autoJoin: z.boolean().optional(),
    autoJoinRole: z.string().min(1).max(64).optional(),
    requireSso: z.boolean().optional(),
  }),
  response: organizationDomainSchema,
  errors: [
    ...MEMBER_ERRORS,
    "INVALID_DOMAIN",
    "DOMAIN_NOT_FOUND",
    "AUTO_JOIN_ROLE_NOT_ALLOWED",
    "SSO_CONNECTION_REQUIRED",
  ],
  summary: "Sets what the verified domain does: auto-join with a role, require SSO.",
  notes: `${WHO} Fields left out keep their value. They may be set while pending and take effect once the domain is verified. autoJoinRole is a role of the organization other than the owner's.`,
  tags: ["organization", "sso"],
  client: "organization.updateDomainSettings",
});
