import { randomInt } from "node:crypto";
import { isDuplicateKeyError } from "../../../db/connect.ts";
import { pickFreeSeat } from "./rules.ts";

/** How one seat is claimed in one collection (members of an organization, or of a team). */
export interface SeatClaim<T> {
  count(): Promise<number>;
  /** The taken seats below the limit (without `highestSeat`, also read without a limit). */
  takenSeats(): Promise<number[]>;
  /**
   * The highest taken seat, -1 when none (read only without a limit: there is
   * nothing to claim then, so a lost seat needs one bounded query, not a read of every seat).
   */
  highestSeat?(): Promise<number>;
  /** Inserts the row holding `seat`; throws the driver's duplicate-key error when it is taken. */
  insert(seat: number): Promise<T>;
  /** Whether the user already holds a row (the other unique index). */
  isAlreadyIn(): Promise<boolean>;
  /** Takes back a row `insert` wrote (the re-count found the limit exceeded). */
  remove(value: T): Promise<void>;
}

export type SeatResult<T> = { ok: true; value: T } | { ok: false; reason: "limit" | "exists" };

const MAX_ATTEMPTS = 10;

/**
 * Membership and team limits under concurrency (docs/security.md). FerretDB v1 does not
 * serialise compare-and-set updates or counters, but a unique-index insert has exactly one winner on
 * every backend. So every member row holds a seat number below the limit, unique per organization
 * (per team for team members): a row can only exist if it claimed a seat, and there are only
 * `limit` seats, so no interleaving of adds and accepts exceeds the limit.
 *
 * The first try takes seat = current count, free unless someone raced us or a member left a gap; a
 * lost claim reads the taken seats and tries a random one of the lowest free ones. Under heavy
 * contention it gives up after MAX_ATTEMPTS and answers "limit": refusing a seat is safe, granting
 * one too many is not.
 *
 * Without a limit (Infinity) a lost claim reads only the highest seat and tries one of the few above
 * it (random, so parallel losers spread); no re-count is needed.
 *
 * A lowered limit keeps existing members, and their seats at or above it do not block the seats
 * below it: with seats {6..9} taken and the limit lowered to 5, five parallel adds would each find a
 * free seat below 5 and end at 9 rows. So a won seat is followed by a re-count, and a row that finds
 * more than `limit` rows is taken back ("limit"). Each keeper counted after its own insert, so the
 * last keeper to insert saw every keeper: no interleaving keeps more than `limit` (concurrent adds
 * may all refuse, never all pass). Seats keep this re-count from refusing anyone otherwise.
 */
export async function claimSeat<T>(claim: SeatClaim<T>, limit: number): Promise<SeatResult<T>> {
  const count = await claim.count();
  if (count >= limit) return { ok: false, reason: "limit" };
  let seat: number | null = count;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && seat !== null; attempt++) {
    let value: T;
    try {
      value = await claim.insert(seat);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      if (await claim.isAlreadyIn()) return { ok: false, reason: "exists" };
      seat =
        !Number.isFinite(limit) && claim.highestSeat
          ? (await claim.highestSeat()) + 1 + randomInt(8)
          : pickFreeSeat(await claim.takenSeats(), limit, randomInt(1_000_000) / 1_000_000);
      continue;
    }
    if (Number.isFinite(limit) && (await claim.count()) > limit) {
      await claim.remove(value);
      return { ok: false, reason: "limit" };
    }
    return { ok: true, value };
  }
  return { ok: false, reason: "limit" };
}
