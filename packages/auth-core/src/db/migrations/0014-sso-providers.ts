import type { Migration } from "./types.ts";

/**
 * SSO connections (features/sso): the unique `providerId` every sign-in and callback is looked up by
 * (and which keeps two organizations from registering one id), an organization's listing, and the
 * declared domains a sign-in by email is routed by under `sso.trustDeclaredDomains`.
 */
export const ssoProviderIndexes: Migration = {
  id: "0014-sso-providers",
  async up({ ssoProviders }) {
    await ssoProviders.createIndex({ providerId: 1 }, { unique: true, name: "providerId_unique" });
    await ssoProviders.createIndex({ organizationId: 1, createdAt: 1 }, { name: "organizationId_createdAt" });
    await ssoProviders.createIndex({ domains: 1 }, { name: "domains" });
  },
};
