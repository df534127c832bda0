import type { Migration } from "./types.ts";

/**
 * Verified domains (features/sso-domains): `verifiedKey` unique holds "one organization verifies a
 * domain" (the domain once verified, `pending:<_id>` before) and is the one indexed read behind
 * every sign-in's require-SSO check and home-realm discovery; (organizationId, domain) unique
 * refuses a second claim of one domain by one organization and serves its listing.
 */
export const organizationDomainIndexes: Migration = {
  id: "0013-organization-domains",
  async up({ organizationDomains }) {
    await organizationDomains.createIndex({ verifiedKey: 1 }, { unique: true, name: "verifiedKey_unique" });
    await organizationDomains.createIndex(
      { organizationId: 1, domain: 1 },
      { unique: true, name: "organizationId_domain_unique" },
    );
  },
};
