import type { Migration } from "./types.ts";

/**
 * Removing a team clears it as the active team on every session that had it
 * (session/store.ts clearActiveTeam, called without a user by remove-team): without this index that
 * update scans every session (docs/decisions/: an index behind every per-request query).
 */
export const activeTeamIndex: Migration = {
  id: "0008-active-team-index",
  async up({ sessions }) {
    await sessions.createIndex({ activeTeamId: 1 }, { name: "activeTeamId" });
  },
};
