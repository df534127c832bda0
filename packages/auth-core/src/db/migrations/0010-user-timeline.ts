import type { Collections } from "../collections.ts";
import { insertManyIgnoringDuplicates } from "../connect.ts";
import type { UserTimelineDoc } from "../documents.ts";
import { timelineIdOf } from "../ids.ts";
import type { Migration } from "./types.ts";

const BATCH = 1000;

/**
 * The users' timeline (docs/scale.md): one entry per existing user, so that admin list-users can
 * read the newest users from an `_id` range. Idempotent: an entry already there is left as it is.
 */
export const userTimeline: Migration = {
  id: "0010-user-timeline",
  async up(collections) {
    await enterEveryUser(collections);
  },
};

/** Also what cleanup runs when the timeline and the users disagree in number (features/cleanup.ts). */
export async function enterEveryUser(
  collections: Pick<Collections, "users" | "userTimeline">,
): Promise<number> {
  let batch: UserTimelineDoc[] = [];
  let written = 0;
  const flush = async () => {
    if (batch.length > 0) {
      const refused = await insertManyIgnoringDuplicates(collections.userTimeline, batch);
      written += batch.length - refused.size;
    }
    batch = [];
  };
  for await (const user of collections.users.find({}, { projection: { _id: 1, createdAt: 1 } })) {
    batch.push({ _id: timelineIdOf(user.createdAt, user._id), userId: user._id });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return written;
}
