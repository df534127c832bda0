import type { Migration } from "./types.ts";

/** The indexes of docs/decisions/ plus one behind every per-request query of the core. */
export const coreIndexes: Migration = {
  id: "0001-core-indexes",
  async up({ users, sessions, accounts, verifications, rateLimits }) {
    await users.createIndex({ email: 1 }, { unique: true, name: "email_unique" });
    await sessions.createIndex({ token: 1 }, { unique: true, name: "token_unique" });
    await sessions.createIndex({ userId: 1 }, { name: "userId" });
    await sessions.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
    await accounts.createIndex(
      { providerId: 1, accountId: 1 },
      { unique: true, name: "provider_account_unique" },
    );
    await accounts.createIndex({ userId: 1 }, { name: "userId" });
    await verifications.createIndex({ identifier: 1 }, { unique: true, name: "identifier_unique" });
    await verifications.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
    await rateLimits.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
  },
};
