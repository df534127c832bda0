import type { Migration } from "./types.ts";

/**
 * Passkeys (features/passkey): the unique credential id behind every passkey sign-in and behind the
 * refusal of a credential registered twice (docs/passkeys.md), and the owner's listing.
 */
export const passkeyIndexes: Migration = {
  id: "0012-passkey-indexes",
  async up({ passkeys }) {
    await passkeys.createIndex({ credentialID: 1 }, { unique: true, name: "credentialID_unique" });
    await passkeys.createIndex({ userId: 1, createdAt: 1 }, { name: "userId_createdAt" });
  },
};
