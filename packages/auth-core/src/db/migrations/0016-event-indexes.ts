import type { Migration } from "./types.ts";

/**
 * Events (features/events): an organization's events in time order, for its listing and its
 * webhooks. Reads by time alone are `_id` ranges (event ids sort by time) and need no index.
 */
export const eventIndexes: Migration = {
  id: "0016-event-indexes",
  async up({ events }) {
    await events.createIndex({ organizationId: 1, _id: 1 }, { name: "organizationId_id" });
  },
};
