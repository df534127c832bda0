import type { Migration } from "./types.ts";

/**
 * The SAML replay cache (features/sso/saml/replay-store.ts): an assertion ID is used once per IdP
 * (the unique index decides concurrent uses), and cleanup deletes rows by expiry.
 */
export const samlReplayIndexes: Migration = {
  id: "0015-saml-replays",
  async up({ samlReplays }) {
    await samlReplays.createIndex(
      { issuer: 1, assertionId: 1 },
      { unique: true, name: "issuer_assertionId_unique" },
    );
    await samlReplays.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
  },
};
