import type { Collections } from "../../../db/collections.ts";
import { countUnexpiredSessions } from "../../session/index.ts";
import { countUsers } from "../../users/index.ts";

export { countUsersByStoredRole, findSignUpDatesSince } from "../../users/index.ts";
/**
 * The dashboard's numbers, answered by the database (counts and one $group, through the users and
 * session faces), never by reading users into memory — except the sign-up dates of the last 30
 * days, read bare (users/store.ts findSignUpDatesSince says why).
 */
export { countUnexpiredSessions };

export function countAllUsers(collections: Collections): Promise<number> {
  return countUsers(collections, {});
}

export function countVerifiedUsers(collections: Collections): Promise<number> {
  return countUsers(collections, { emailVerified: true });
}

/** Bans in force at `now`: banned, and no expiry or one still ahead (users/ban.ts isBanActive). */
export function countActivelyBannedUsers(collections: Collections, now: Date): Promise<number> {
  return countUsers(collections, { banned: true, $or: [{ banExpires: null }, { banExpires: { $gt: now } }] });
}
