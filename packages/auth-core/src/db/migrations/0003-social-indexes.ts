import type { Migration } from "./types.ts";

/**
 * Social sign-in. The token endpoints and unlink look up a user's account of one provider
 * (`{ userId, providerId }`); the compound index serves that and the plain `userId` listing alike.
 * `(providerId, accountId)` (unique) and `verifications.identifier` (the OAuth state) come from 0001.
 */
export const socialIndexes: Migration = {
  id: "0003-social-indexes",
  async up({ accounts }) {
    await accounts.createIndex({ userId: 1, providerId: 1 }, { name: "userId_providerId" });
  },
};
