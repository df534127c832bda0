import type { Migration } from "./types.ts";

/**
 * The users' timeline (docs/scale.md): one entry per existing user, so that admin list-users can
 * read the newest users from an `_id` range. Idempotent: an entry already there is left as it is.
 * The entries are written by their owner (features/users repairs.ts enterEveryUser, handed in as a
 * step), the same function cleanup's timeline repair runs.
 */
export const timelineEntries: Migration = {
  id: "0010-user-timeline",
  async up(collections, _now, { enterEveryUser }) {
    await enterEveryUser(collections);
  },
};
