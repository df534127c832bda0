import type { Migration } from "./types.ts";

/**
 * SCIM (features/scim). Tokens: every SCIM request finds its token by hash (one indexed read, unique
 * so one hash names one organization); one token per organization and connection. Directory users:
 * one row per organization and user, listed in user-id order; looked up by the directory's externalId.
 */
export const scimIndexes: Migration = {
  id: "0018-scim",
  async up({ scimTokens, scimUsers }) {
    await scimTokens.createIndex({ tokenHash: 1 }, { unique: true, name: "tokenHash_unique" });
    await scimTokens.createIndex(
      { organizationId: 1, providerId: 1 },
      { unique: true, name: "organizationId_providerId_unique" },
    );
    await scimUsers.createIndex(
      { organizationId: 1, userId: 1 },
      { unique: true, name: "organizationId_userId_unique" },
    );
    await scimUsers.createIndex({ organizationId: 1, externalId: 1 }, { name: "organizationId_externalId" });
  },
};
