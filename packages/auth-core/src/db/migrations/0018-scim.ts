import type { Migration } from "./types.ts";

/**
 * SCIM bearer tokens (features/scim/tokens/store.ts): every SCIM request finds its token by hash (one
 * indexed read, unique so one hash names one organization); one token per organization and connection.
 */
export const scimTokenIndexes: Migration = {
  id: "0018-scim-tokens",
  async up({ scimTokens }) {
    await scimTokens.createIndex({ tokenHash: 1 }, { unique: true, name: "tokenHash_unique" });
    await scimTokens.createIndex(
      { organizationId: 1, providerId: 1 },
      { unique: true, name: "organizationId_providerId_unique" },
    );
  },
};
