import type { Migration } from "./types.ts";

/**
 * Webhooks (features/webhooks): an endpoint listing by scope, the workers' claim of due deliveries
 * (status, next attempt) and an endpoint's delivery listing.
 */
export const webhookIndexes: Migration = {
  id: "0017-webhook-indexes",
  async up({ webhookEndpoints, webhookDeliveries }) {
    await webhookEndpoints.createIndex(
      { organizationId: 1, createdAt: 1 },
      { name: "organizationId_createdAt" },
    );
    await webhookDeliveries.createIndex({ status: 1, nextAttemptAt: 1 }, { name: "status_nextAttemptAt" });
    await webhookDeliveries.createIndex({ endpointId: 1, createdAt: -1 }, { name: "endpointId_createdAt" });
  },
};
