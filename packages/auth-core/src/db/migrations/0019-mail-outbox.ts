import type { Migration } from "./types.ts";

/**
 * The mail outbox (features/mail-outbox): the workers' due query ({ state: "queued", nextAttemptAt
 * ≤ now } by nextAttemptAt), a user's recent mails and an invitation's mail.
 */
export const mailOutboxIndexes: Migration = {
  id: "0019-mail-outbox",
  async up({ mails }) {
    await mails.createIndex({ state: 1, nextAttemptAt: 1 }, { name: "state_nextAttemptAt" });
    await mails.createIndex({ userId: 1, createdAt: -1 }, { name: "userId_createdAt" });
    await mails.createIndex({ invitationId: 1 }, { name: "invitationId" });
  },
};
