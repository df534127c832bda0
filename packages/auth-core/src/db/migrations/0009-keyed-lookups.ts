import type { Collection, Document, ObjectId } from "mongodb";
import { insertManyIgnoringDuplicates } from "../connect.ts";
import type { AccountDoc, EmailClaimDoc, SessionDoc, UserDoc, VerificationDoc } from "../documents.ts";
import { keyedId } from "../ids.ts";
import type { Migration } from "./types.ts";

const BATCH = 500;

/*
 * The `_id`s as this migration writes them, frozen here (a migration keeps doing what it did when it
 * shipped, and db/ imports no feature): session/store.ts sessionIdOf, db/accounts.ts accountIdOf,
 * db/ids.ts verificationIdOf.
 */
const sessionId = (doc: SessionDoc) => keyedId("session", doc.token);
const accountId = (doc: AccountDoc) => keyedId("account", doc.providerId, doc.accountId);
const verificationId = (doc: VerificationDoc) => keyedId("verification", doc.identifier);

/**
 * docs/scale.md: every per-request lookup becomes a lookup by `_id`.
 * - Each user's address gets its claim in `emailClaims` (`_id` = the address).
 * - Sessions, accounts and verifications move to the `_id` their unique key gives (a copy under the
 *   new `_id`, then the old document goes). The unique indexes on those keys go first: the `_id` is
 *   now what keeps the keys unique, and the copy could not be written beside the old document
 *   while they stand. A crash between copy and delete leaves both; the next start (the migration is
 *   not recorded yet) deletes the old one, and readers only ever look at the new one.
 * Idempotent: documents already under their keyed `_id` and existing claims are skipped.
 */
export const keyedLookups: Migration = {
  id: "0009-keyed-lookups",
  async up({ users, emailClaims, sessions, accounts, verifications }, now) {
    await claimAddresses(users, emailClaims, now);
    await dropIndexIfPresent(sessions, "token_unique");
    await rekey(sessions, sessionId);
    await dropIndexIfPresent(accounts, "provider_account_unique");
    await rekey(accounts, accountId);
    await dropIndexIfPresent(verifications, "identifier_unique");
    // The prefix deletes (sign-in throttle, two-factor, a user's tokens) still use it on MongoDB.
    await verifications.createIndex({ identifier: 1 }, { name: "identifier" });
    await rekey(verifications, verificationId);
  },
};

async function claimAddresses(
  users: Collection<UserDoc>,
  emailClaims: Collection<EmailClaimDoc>,
  now: Date,
): Promise<void> {
  let batch: EmailClaimDoc[] = [];
  const flush = async () => {
    if (batch.length > 0) await insertManyIgnoringDuplicates(emailClaims, batch);
    batch = [];
  };
  for await (const user of users.find({}, { projection: { _id: 1, email: 1 } })) {
    batch.push({ _id: user.email, userId: user._id, createdAt: now });
    if (batch.length >= BATCH) await flush();
  }
  await flush();
}

async function rekey<T extends { _id: ObjectId }>(
  collection: Collection<T>,
  keyedIdOf: (doc: T) => ObjectId,
): Promise<void> {
  let moves: { doc: T; oldId: ObjectId }[] = [];
  const flush = async () => {
    if (moves.length === 0) return;
    await insertManyIgnoringDuplicates(
      collection,
      moves.map((move) => move.doc),
    );
    await (collection as unknown as Collection<Document>).deleteMany({
      _id: { $in: moves.map((move) => move.oldId) },
    });
    moves = [];
  };
  for await (const doc of collection.find({})) {
    const target = keyedIdOf(doc as T);
    if (target.equals(doc._id)) continue;
    moves.push({ doc: { ...(doc as T), _id: target }, oldId: doc._id });
    if (moves.length >= BATCH) await flush();
  }
  await flush();
}

async function dropIndexIfPresent(
  collection: Pick<Collection, "listIndexes" | "dropIndex">,
  name: string,
): Promise<void> {
  const indexes = await collection
    .listIndexes()
    .toArray()
    .catch(() => []);
  if (indexes.some((index) => index.name === name)) await collection.dropIndex(name);
}
