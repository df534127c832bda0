import { ObjectId } from "../../db/ids.ts";

const ID_PREFIX = "evt_";

/**
 * `evt_` + the time in milliseconds (12 hex digits) + 16 hex digits of a fresh ObjectId (its
 * per-process random part and counter). Ids sort by the time the event happened; two events of one
 * process in the same millisecond keep their order through the counter, and processes differ in
 * the random part. The id is chosen once, when the change is written, so every relay of the same
 * event upserts the same row.
 */
export function newEventId(at: Date): string {
  return `${ID_PREFIX}${millisHex(at)}${new ObjectId().toHexString().slice(8)}`;
}

/** The smallest id an event of `at` or later can have: the lower bound of a `since` range. */
export function eventIdFloor(at: Date): string {
  return `${ID_PREFIX}${millisHex(at)}${"0".repeat(16)}`;
}

function millisHex(at: Date): string {
  return Math.max(0, at.getTime()).toString(16).padStart(12, "0");
}
