import type { Migration } from "./types.ts";

/**
 * Two-factor storage (features/two-factor). docs/decisions/: `twoFactors.userId` unique — one second
 * factor per user, and two concurrent enrollments cannot both insert. Challenges, attempt slots,
 * one-time markers and trusted devices live in `verifications`, whose unique `identifier` index
 * (0001) serves their lookups and decides their races.
 */
export const twoFactorIndexes: Migration = {
  id: "0005-two-factor-indexes",
  async up({ twoFactors }) {
    await twoFactors.createIndex({ userId: 1 }, { unique: true, name: "userId_unique" });
  },
};
