import type { Migration } from "./types.ts";

/**
 * GET /export-user-data (features/user-export/user-rows.ts, through the owners) reads the invitations a user sent and the
 * user's team rows; without these indexes each read scans its whole collection (docs/decisions/:
 * an index behind every per-request query).
 */
export const userExportIndexes: Migration = {
  id: "0011-user-export-indexes",
  async up({ invitations, teamMembers }) {
    await invitations.createIndex({ inviterId: 1 }, { name: "inviterId" });
    await teamMembers.createIndex({ userId: 1 }, { name: "userId" });
  },
};
