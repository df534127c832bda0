import type { Filter, ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { ApiKeyDoc } from "../../db/documents.ts";
import { type RemovableRows, removableRowsOf } from "../../db/stored-rows.ts";
import {
  deleteRowsWithEvents,
  type EventDoc,
  type EventSource,
  eventOf,
  startRelay,
} from "../events/index.ts";
import { SLOT_DIGITS, usageClaimId } from "./rules.ts";

/** The only file of features/api-key that talks to MongoDB. "Not found" is null. */

/** The keys' events (features/events): created with the insert, revoked with a user's delete. */
export const apiKeyEventSource: EventSource = {
  name: "apiKeys",
  collection: (collections) => collections.apiKeys,
};

function apiKeyEventOf(
  type: "api_key.created" | "api_key.revoked",
  doc: Pick<ApiKeyDoc, "_id" | "userId" | "name">,
  at: Date,
): EventDoc {
  const data = { apiKeyId: doc._id.toHexString(), userId: doc.userId.toHexString(), name: doc.name ?? null };
  return eventOf(type, at, { userId: doc.userId }, data);
}

export async function insertApiKey(collections: Collections, doc: ApiKeyDoc): Promise<void> {
  const events = [apiKeyEventOf("api_key.created", doc, collections.eventHub.now())];
  await collections.apiKeys.insertOne({ ...doc, _events: events });
  startRelay(collections, events);
}

/** Deletes the keys `filter` matches, each with its api_key.revoked (read first by `_id`, `userId`, `name`). */
async function revokeApiKeysWhere(collections: Collections, filter: Filter<ApiKeyDoc>): Promise<ObjectId[]> {
  const found = await collections.apiKeys
    .find(filter, { projection: { _id: 1, userId: 1, name: 1 } })
    .toArray();
  const at = collections.eventHub.now();
  const rows = found.map((doc) => ({ _id: doc._id, event: apiKeyEventOf("api_key.revoked", doc, at) }));
  let removed: ObjectId[] = [];
  await deleteRowsWithEvents(collections, apiKeyEventSource, rows, async (ids) => {
    const result = await collections.apiKeys.deleteMany({ $and: [filter, { _id: { $in: ids } }] });
    removed = result.deletedCount > 0 ? ids : [];
    return result.deletedCount;
  });
  return removed;
}

export function findApiKeyByHash(collections: Collections, keyHash: string): Promise<ApiKeyDoc | null> {
  return collections.apiKeys.findOne({ keyHash: { $eq: keyHash } });
}

/** The key only when it belongs to `userId`: another user's key is indistinguishable from none (K3). */
export function findUserApiKey(
  collections: Collections,
  userId: ObjectId,
  id: ObjectId,
): Promise<ApiKeyDoc | null> {
  return collections.apiKeys.findOne({ _id: id, userId });
}

export function listUserApiKeys(
  collections: Collections,
  userId: ObjectId,
  page: { limit: number; offset: number },
): Promise<ApiKeyDoc[]> {
  return collections.apiKeys
    .find({ userId })
    .sort({ createdAt: -1, _id: -1 })
    .skip(page.offset)
    .limit(page.limit)
    .toArray();
}

export function countUserApiKeys(collections: Collections, userId: ObjectId): Promise<number> {
  return collections.apiKeys.countDocuments({ userId });
}

/** Returns the updated key, or null when it no longer exists for this user. */
export function updateUserApiKey(
  collections: Collections,
  userId: ObjectId,
  id: ObjectId,
  change: Partial<ApiKeyDoc>,
): Promise<ApiKeyDoc | null> {
  return collections.apiKeys.findOneAndUpdate(
    { _id: id, userId },
    { $set: change },
    { returnDocument: "after" },
  );
}

export async function deleteUserApiKey(
  collections: Collections,
  userId: ObjectId,
  id: ObjectId,
): Promise<boolean> {
  return (await revokeApiKeysWhere(collections, { _id: id, userId })).length === 1;
}

/**
 * Deletes every key of a user, then their use claims (keys first: a crash between the two leaves
 * only unreachable claims). Returns how many keys were deleted.
 */
export async function deleteUserApiKeys(collections: Collections, userId: ObjectId): Promise<number> {
  const owned = await collections.apiKeys.find({ userId }).project<{ _id: ObjectId }>({ _id: 1 }).toArray();
  if (owned.length === 0) return 0;
  const ids = owned.map((doc) => doc._id);
  const result = await collections.apiKeys.deleteMany({ userId });
  await collections.apiKeyUses.deleteMany({ keyId: { $in: ids } });
  return result.deletedCount;
}

/**
 * Deletes the user's keys created from a session (`createdFromSession`), then their use claims, as
 * deleteUserApiKeys does. Keys server code created for the user stay. Returns how many were deleted.
 */
export async function deleteSessionMintedApiKeys(
  collections: Collections,
  userId: ObjectId,
): Promise<number> {
  const ids = await revokeApiKeysWhere(collections, { userId, createdFromSession: true });
  if (ids.length === 0) return 0;
  await collections.apiKeyUses.deleteMany({ keyId: { $in: ids } });
  return ids.length;
}

/** Every key of the user, in stored order, at most `limit` (the user's data export). */
export function findUserApiKeys(
  collections: Collections,
  userId: ObjectId,
  limit: number,
): Promise<ApiKeyDoc[]> {
  return collections.apiKeys.find({ userId }).limit(limit).toArray();
}

/**
 * `auth.cleanup()`: keys expired at or before `expiredBefore`. A key that never expires
 * (`expiresAt: null`) does not compare as ≤ a date: it stays.
 */
export async function deleteExpiredApiKeys(collections: Collections, expiredBefore: Date): Promise<number> {
  const result = await collections.apiKeys.deleteMany({ expiresAt: { $lte: expiredBefore } });
  return result.deletedCount;
}

/** Every use claim of a key (its `_id`s start with the key id and "|"). */
export async function deleteKeyUses(collections: Collections, keyId: ObjectId): Promise<void> {
  await collections.apiKeyUses.deleteMany({ keyId });
}

/** Use claims of periods that have ended; `auth.cleanup()` material (no TTL on FerretDB v1). */
export async function deleteExpiredKeyUses(collections: Collections, now: Date): Promise<number> {
  const result = await collections.apiKeyUses.deleteMany({ expiresAt: { $lte: now } });
  return result.deletedCount;
}

/** The highest slot claimed in a period (0 when none): the uses it has admitted so far. */
export async function readUsedSlots(collections: Collections, prefix: string): Promise<number> {
  const newest = await collections.apiKeyUses
    .find({ _id: { $gte: usageClaimId(prefix, 0), $lte: prefix + "9".repeat(SLOT_DIGITS) } })
    .project<{ _id: string }>({ _id: 1 })
    .sort({ _id: -1 })
    .limit(1)
    .toArray();
  const id = newest[0]?._id;
  return id === undefined ? 0 : Number(id.slice(prefix.length));
}

/**
 * Claims one slot of a period by inserting it. False when another use holds it already: the
 * unique `_id` decides, which is exact on every backend (FerretDB v1 does not serialise `$inc` or
 * compare-and-set updates — measured — but it does reject a duplicate `_id`).
 */
export async function insertUseClaim(
  collections: Collections,
  claim: { prefix: string; slot: number; keyId: ObjectId; expiresAt: Date | null },
): Promise<boolean> {
  try {
    await collections.apiKeyUses.insertOne({
      _id: usageClaimId(claim.prefix, claim.slot),
      keyId: claim.keyId,
      expiresAt: claim.expiresAt,
    });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** `tessera doctor`'s view of the API keys (db/stored-rows.ts): a key whose user is gone is deleted. */
export function apiKeyRowsForChecks(collections: Collections): RemovableRows {
  return removableRowsOf(collections.apiKeys);
}
