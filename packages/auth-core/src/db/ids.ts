import { createHash } from "node:crypto";
import { ObjectId } from "mongodb";

/** The driver's id type, for code outside db/ and the stores (which alone import "mongodb"). */
export { ObjectId };

const HEX_ID = /^[0-9a-f]{24}$/i;

/** Returns null for anything that is not a 24-hex string, so a bad id never reaches the database. */
export function parseId(value: unknown): ObjectId | null {
  if (typeof value !== "string" || !HEX_ID.test(value)) return null;
  return ObjectId.createFromHexString(value);
}

/**
 * The `_id` of a document looked up by a unique key — a session by its token, an account by its
 * provider identity, a verification by its identifier: the first 12 bytes of SHA-256 of the kind
 * and the key. A lookup by key is then a lookup by `_id`, which every backend answers from an index
 * (the embedded FerretDB answers nothing else from one: docs/scale.md), and a duplicate key is a
 * duplicate `_id`, so the unique insert that settles races stays exactly as strong. Stores filter
 * on the key as well, so a (2^-96) collision could never return another key's document.
 */
export function keyedId(kind: KeyedKind, ...key: string[]): ObjectId {
  const digest = createHash("sha256")
    .update(JSON.stringify([kind, ...key]))
    .digest();
  return new ObjectId(digest.subarray(0, 12));
}

export type KeyedKind = "session" | "account" | "verification";

/** A verification's `_id`, from its identifier (db/verifications.ts, the owner of every feature's rows there). */
export const verificationIdOf = (identifier: string) => keyedId("verification", identifier);

/**
 * A user's entry in the timeline (documents.ts UserTimelineDoc): `t`, the creation time in
 * milliseconds shifted to 16 digits, `:`, the user id in hex. Their order is the users' order by
 * `{createdAt, _id}`, and every entry lies in TIMELINE_RANGE.
 */
export function timelineIdOf(createdAt: Date, userId: ObjectId): string {
  return `t${String(createdAt.getTime() + 1e15).padStart(16, "0")}:${userId.toHexString()}`;
}

/**
 * The user id a timeline entry's `_id` ends with (what timelineIdOf wrote after the `:`), so a page
 * of the timeline can be read without its `userId` fields; null when the text holds none.
 */
export function userIdOfTimelineId(id: string): ObjectId | null {
  const colon = id.indexOf(":");
  return colon < 0 ? null : parseId(id.slice(colon + 1));
}

/** Every timeline entry: the strings starting with `t` (an index range on MongoDB and on FerretDB). */
export const TIMELINE_RANGE = { $gte: "t", $lt: "u" } as const;
