import type { ObjectId } from "mongodb";
import { countUserAccounts } from "../../db/accounts.ts";
import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { PasskeyDoc } from "../../db/documents.ts";
import { type RemovableRows, removableRowsOf } from "../../db/stored-rows.ts";
import {
  deleteRowsWithEvents,
  type EventDoc,
  type EventSource,
  eventOf,
  startRelay,
} from "../events/index.ts";

/**
 * The only file of features/passkey that talks to MongoDB, and the owner of `passkeys` (unique
 * `credentialID`, db/migrations/0012-passkey-indexes.ts). Ceremony challenges are rows of
 * `verifications`, kept through that table's owner (db/verifications.ts), whose delete count makes
 * each one single-use.
 */
export {
  consumeVerification as consumeRow,
  insertVerificationIfAbsent as insertRow,
} from "../../db/verifications.ts";

/** The passkeys' events (features/events): registered with the insert, deleted with the delete. */
export const passkeyEventSource: EventSource = {
  name: "passkeys",
  collection: (collections) => collections.passkeys,
};

function passkeyEventOf(
  type: "passkey.registered" | "passkey.deleted",
  doc: Pick<PasskeyDoc, "_id" | "userId" | "name">,
  at: Date,
): EventDoc {
  const data = { passkeyId: doc._id.toHexString(), userId: doc.userId.toHexString(), name: doc.name ?? null };
  return eventOf(type, at, { userId: doc.userId }, data);
}

/** Inserts a passkey; false when its credential id is stored already (any user's: the unique index decides). */
export async function insertPasskey(collections: Collections, doc: PasskeyDoc): Promise<boolean> {
  const events = [passkeyEventOf("passkey.registered", doc, collections.eventHub.now())];
  try {
    await collections.passkeys.insertOne({ ...doc, _events: events });
    startRelay(collections, events);
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export function findPasskeyByCredentialID(
  collections: Collections,
  credentialID: string,
): Promise<PasskeyDoc | null> {
  return collections.passkeys.findOne({ credentialID: { $eq: credentialID } });
}

/** The user's passkeys, oldest first. */
export function findUserPasskeys(collections: Collections, userId: ObjectId): Promise<PasskeyDoc[]> {
  return collections.passkeys.find({ userId }).sort({ createdAt: 1, _id: 1 }).toArray();
}

/** Null when the passkey is not the user's (or is gone). */
function findUserPasskey(
  collections: Collections,
  userId: ObjectId,
  id: ObjectId,
): Promise<PasskeyDoc | null> {
  return collections.passkeys.findOne({ _id: id, userId });
}

export function renameUserPasskey(
  collections: Collections,
  userId: ObjectId,
  id: ObjectId,
  name: string,
): Promise<PasskeyDoc | null> {
  return collections.passkeys.findOneAndUpdate(
    { _id: id, userId },
    { $set: { name } },
    { returnDocument: "after" },
  );
}

/** The deleted passkey; null when it was not the user's or another request deleted it first. */
export async function deleteUserPasskey(
  collections: Collections,
  userId: ObjectId,
  id: ObjectId,
): Promise<PasskeyDoc | null> {
  const doc = await findUserPasskey(collections, userId, id);
  if (!doc) return null;
  const event = passkeyEventOf("passkey.deleted", doc, collections.eventHub.now());
  const removed = await deleteRowsWithEvents(collections, passkeyEventSource, [{ _id: id, event }], (ids) =>
    collections.passkeys.deleteMany({ _id: { $in: ids }, userId }).then((result) => result.deletedCount),
  );
  return removed === 1 ? doc : null;
}

/** Puts back a passkey this request deleted (the last-way-to-sign-in rule, management.ts). */
export async function restorePasskey(collections: Collections, doc: PasskeyDoc): Promise<void> {
  await insertPasskey(collections, doc);
}

/**
 * Records a verified sign-in: the new counter — only over the counter the check was made against, so
 * of two sign-ins racing with one counter value only one moves it — the backup state and the time,
 * and uvInitialized once a sign-in verified the user (it never goes back to false).
 * False when the counter moved meanwhile or the passkey is gone.
 */
export async function recordPasskeyUse(
  collections: Collections,
  doc: PasskeyDoc,
  use: { counter: number; backedUp: boolean; userVerified: boolean; at: Date },
): Promise<boolean> {
  const set = { counter: use.counter, backedUp: use.backedUp, lastUsedAt: use.at };
  const result = await collections.passkeys.updateOne(
    { _id: doc._id, counter: doc.counter },
    { $set: use.userVerified ? { ...set, uvInitialized: true } : set },
  );
  return result.matchedCount === 1;
}

/** How many ways the user has to sign in: accounts (a password, a provider) and passkeys. */
export async function countSignInMethods(collections: Collections, userId: ObjectId): Promise<number> {
  const [accounts, passkeys] = await Promise.all([
    countUserAccounts(collections, userId),
    collections.passkeys.countDocuments({ userId }),
  ]);
  return accounts + passkeys;
}

export async function deleteUserPasskeys(collections: Collections, userId: ObjectId): Promise<number> {
  const { deletedCount } = await collections.passkeys.deleteMany({ userId });
  return deletedCount;
}

/** Deletes the user's passkeys registered while their address was unverified; returns how many went. */
export async function deleteUnprovenPasskeys(collections: Collections, userId: ObjectId): Promise<number> {
  const { deletedCount } = await collections.passkeys.deleteMany({ userId, registeredUnverified: true });
  return deletedCount;
}

/** `tessera doctor`'s view of the passkeys (db/stored-rows.ts): a passkey whose user is gone is deleted. */
export function passkeyRowsForChecks(collections: Collections): RemovableRows {
  return removableRowsOf(collections.passkeys);
}
