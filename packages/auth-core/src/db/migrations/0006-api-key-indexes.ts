import type { Migration } from "./types.ts";

/**
 * API keys (features/api-key): the unique hash behind every verification (docs/decisions/), the
 * owner's listing, and expiry for cleanup. Usage claims are found by `_id` range (always indexed);
 * `keyId` and `expiresAt` serve deletion with the key and cleanup.
 */
export const apiKeyIndexes: Migration = {
  id: "0006-api-key-indexes",
  async up({ apiKeys, apiKeyUses }) {
    await apiKeys.createIndex({ keyHash: 1 }, { unique: true, name: "keyHash_unique" });
    await apiKeys.createIndex({ userId: 1, createdAt: -1 }, { name: "userId_createdAt" });
    await apiKeys.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
    await apiKeyUses.createIndex({ keyId: 1 }, { name: "keyId" });
    await apiKeyUses.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
  },
};
