import type { Filter } from "mongodb";
import type { AuthContext } from "../../context.ts";
import type { Collections } from "../../db/collections.ts";
import { insertManyIgnoringDuplicates } from "../../db/connect.ts";
import type { UserDoc } from "../../db/documents.ts";
import { findFirst, findPage, type PageQuery } from "../../db/find-page.ts";
import { ObjectId } from "../../db/ids.ts";
import { bumpUsersListing } from "../../db/listing-version.ts";
import { findRawPage, type RawPage } from "../../db/raw-page.ts";
import { type StoredRows, storedRowsOf } from "../../db/stored-rows.ts";
import {
  deleteRowsWithEvents,
  type EventDoc,
  type EventSource,
  outboxWrittenBy,
  pushEvents,
  startRelay,
  WITHOUT_OUTBOX,
} from "../events/index.ts";
import {
  claimAddressesInBulk,
  deleteClaim,
  findClaim,
  insertClaim,
  pointClaimAt,
  releaseEmail,
} from "./claims-store.ts";
import { eventsOfUserWrite, userCreatedEvent, userDeletedEvent } from "./events.ts";
import { addManyToTimeline, removeFromTimeline } from "./timeline-store.ts";

/**
 * The owner of `users`, the one file naming it. Each write function here also writes what follows
 * it — the address claim (claims-store.ts, owner of `emailClaims`), the timeline entry
 * (timeline-store.ts, owner of `userTimeline`) and the listing bumps — so no caller can forget one;
 * the decisions about whose a claim is read users, so they live here too (takeEmailClaim,
 * repairEmailClaim). Other features, the operator API and the CLI reach these tables only through
 * features/users' face.
 */

/** The users' events (features/events): each write below carries those it means (events.ts). */
export const userEventSource: EventSource = { name: "users", collection: (collections) => collections.users };

/** An `_id` no user has: what an unclaimed address's second lookup asks for. */
export const NOBODY = new ObjectId("000000000000000000000000");

/**
 * What a write of a user's shown fields needs: the collections, and the organizations' hand-over
 * that bumps the listings of the organizations showing the user (context.ts onMemberUserChanged).
 */
export type UserWriter = Pick<AuthContext, "collections" | "onMemberUserChanged">;

/**
 * After a write of `fields` to the user (`written`: the write matched): every write shows in admin
 * list-users; only the fields a member list shows (members/types.ts MemberUser) concern the user's
 * organizations.
 */
async function bumpListingsOfUserWrite(
  writer: UserWriter,
  userId: ObjectId,
  fields: object,
  written: boolean,
): Promise<void> {
  if (!written) return;
  await bumpUsersListing(writer.collections);
  if ("name" in fields || "email" in fields || "image" in fields)
    await writer.onMemberUserChanged(writer.collections, userId);
}

/**
 * Users written in bulk with their claims (the bench's seeding, imports): claims first, then the
 * users, in batches. Documents whose address is claimed already are left out; answers those written.
 */
export async function insertUsersInBulk(collections: Collections, docs: UserDoc[]): Promise<UserDoc[]> {
  if (docs.length === 0) return [];
  const claimed = await claimAddressesInBulk(collections, docs);
  await addManyToTimeline(collections, claimed);
  const at = collections.eventHub.now();
  const outboxes = claimed.map((doc) => ({ ...doc, _events: [userCreatedEvent(doc, at)] }));
  const refused = await insertManyIgnoringDuplicates(collections.users, outboxes);
  await bumpUsersListing(collections);
  const written = outboxes.filter((_, index) => !refused.has(index));
  startRelay(
    collections,
    written.flatMap((doc) => doc._events),
  );
  return claimed.filter((_, index) => !refused.has(index));
}

/** The user with its user.created event in its outbox (features/events), relayed after the answer. */
export async function insertUser(collections: Collections, doc: UserDoc): Promise<void> {
  const events = [userCreatedEvent(doc, collections.eventHub.now())];
  await collections.users.insertOne({ ...doc, _events: events });
  await bumpUsersListing(collections);
  startRelay(collections, events);
}

export async function updateUserFields(
  writer: UserWriter,
  userId: ObjectId,
  fields: Partial<Omit<UserDoc, "_id">>,
): Promise<UserDoc | null> {
  return updateUserWithEvents(writer, { _id: userId }, fields);
}

/**
 * The update of `fields` with the events they mean in the same single-document write. A write that
 * turns a flag (a ban, a proven address, a second factor) carries its event; written while the flag
 * already has that value, the write is sent again without it (one more command, only then).
 */
async function updateUserWithEvents(
  writer: UserWriter,
  filter: Filter<UserDoc> & { _id: ObjectId },
  fields: Partial<Omit<UserDoc, "_id">>,
): Promise<UserDoc | null> {
  const { collections } = writer;
  const { events, flagEvents, flagsTurn } = eventsOfUserWrite(filter._id, fields, collections.eventHub.now());
  const write = (where: Filter<UserDoc>, written: EventDoc[]) =>
    collections.users
      .findOneAndUpdate(where, { $set: fields, ...pushEvents(written) }, { returnDocument: "after" })
      .then((doc) => (doc ? { doc: outboxWrittenBy(collections, collections.users, doc), written } : null));
  const result =
    flagsTurn === null
      ? await write(filter, events)
      : ((await write({ $and: [filter, flagsTurn as Filter<UserDoc>] }, [...flagEvents, ...events])) ??
        (await write(filter, events)));
  const updated = result?.doc ?? null;
  if (result) startRelay(collections, result.written);
  await bumpListingsOfUserWrite(writer, filter._id, fields, updated !== null);
  return updated;
}

/** Undoes a sign-up's own user (its account could not be stored): then its claim and timeline entry. */
export async function deleteUserById(collections: Collections, userId: ObjectId): Promise<void> {
  const user = await collections.users.findOne({ _id: userId }, { projection: WITHOUT_OUTBOX });
  if (!user) return;
  // Its user.created may be stored already: the deletion is an event of its own.
  const event = userDeletedEvent(userId, collections.eventHub.now());
  const removed = await deleteRowsWithEvents(collections, userEventSource, [{ _id: userId, event }], (ids) =>
    collections.users.deleteMany({ _id: { $in: ids } }).then((result) => result.deletedCount),
  );
  if (removed === 0) return;
  // A sign-up's own user taken back: it is in no organization yet.
  await bumpUsersListing(collections);
  await releaseEmail(collections, user.email, userId);
  await removeFromTimeline(collections, user);
}

/**
 * A deletion's write of the user row, then its address claim and timeline entry and the listings
 * that showed it. True when this call removed the row (false when a concurrent deletion got there
 * first: then nothing else is done, unless `finishing` — a deletion a crash cut short, whose row may
 * be gone already while its claim and entry are not; the claim only while it is still this user's).
 */
export async function deleteUserRow(
  writer: UserWriter,
  user: Pick<UserDoc, "_id" | "email" | "createdAt">,
  finishing = false,
): Promise<boolean> {
  const { collections } = writer;
  const removed = (await collections.users.deleteOne({ _id: user._id })).deletedCount === 1;
  if (!removed && !finishing) return false;
  // Admin list-users, and the organizations whose member lists name the user.
  await bumpUsersListing(collections);
  await writer.onMemberUserChanged(collections, user._id);
  await releaseEmail(collections, user.email, user._id);
  await removeFromTimeline(collections, user);
  return removed;
}

export function findUserById(collections: Collections, userId: ObjectId): Promise<UserDoc | null> {
  return findFirst(collections.users, { _id: userId }, WITHOUT_OUTBOX);
}

/**
 * The user holding the address: one read on the unique `email` index, which MongoDB and the embedded
 * database (docs/scale.md, edit 7) both answer from the index, whatever the number of users — the
 * same one command for an address nobody has (sign-in must not tell it apart). The unique index
 * decides who holds an address; the claim (emailClaims) is what writers race on before they write.
 */
export function findUserByEmail(collections: Collections, email: string): Promise<UserDoc | null> {
  return findFirst(collections.users, { email: { $eq: email } }, WITHOUT_OUTBOX);
}

/**
 * Claims the address for the user before the user (or its new address) is written; null when
 * another user holds it. A claim whose user is gone or holds another address (a crash between claim
 * and write, or a write that lost) is stale: it is deleted and the insert tried again, and of
 * concurrent claimers exactly one insert wins (a unique `_id`). The unique email index on users stays
 * the arbiter between a claimer and a user written meanwhile: the loser's write fails, and
 * repairEmailClaim points the claim at whoever holds the address. `abandonedBy`: the user id of a
 * stale claim whose user does not exist at all — a sign-up cut by a crash after its claim (and perhaps
 * its credential account, written before the user: service.ts storeUser), or one still in flight.
 */
export async function takeEmailClaim(
  collections: Collections,
  email: string,
  userId: ObjectId,
  now: Date,
): Promise<{ abandonedBy: ObjectId | null } | null> {
  let abandonedBy: ObjectId | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await insertClaim(collections, email, userId, now)) return { abandonedBy };
    const claim = await findClaim(collections, email);
    if (!claim) continue;
    if (claim.userId.equals(userId)) return { abandonedBy };
    const holder = await collections.users.findOne({ _id: claim.userId }, { projection: { email: 1 } });
    if (holder?.email === email) return null;
    abandonedBy = holder ? null : claim.userId;
    await releaseEmail(collections, email, claim.userId);
  }
  return null;
}

/**
 * After a user write lost to the unique email index: the claim goes to the user who holds the
 * address (found by scanning users — only ever on this conflict), or away when nobody does.
 */
export async function repairEmailClaim(collections: Collections, email: string, now: Date): Promise<void> {
  const holder = await collections.users.findOne({ email: { $eq: email } });
  if (holder) await pointClaimAt(collections, email, holder._id, now);
  else await deleteClaim(collections, email);
}

/**
 * Compare-and-set write on a user (FerretDB has no transactions): applies `fields` only while the
 * user still has `expectedEmail` (and, when given, `expectedVerified`). Null when the user is gone or
 * no longer matches — a concurrent verification or email change won. Throws the driver's duplicate
 * key error when `fields.email` belongs to another user (the unique index settles races).
 */
async function updateUserWhereEmail(
  writer: UserWriter,
  userId: ObjectId,
  expectedEmail: string,
  expectedVerified: boolean | undefined,
  fields: Partial<Omit<UserDoc, "_id" | "createdAt">>,
): Promise<UserDoc | null> {
  const filter =
    expectedVerified === undefined
      ? { _id: userId, email: { $eq: expectedEmail } }
      : { _id: userId, email: { $eq: expectedEmail }, emailVerified: expectedVerified };
  return updateUserWithEvents(writer, filter, fields);
}

/**
 * Writes `fields` to the user, moving its address claim when `fields.email` is another address: the
 * new address is claimed first ("taken" when another user holds it), the old claim goes once the
 * user holds the new one, and the new one goes back when the user was not written; when the write
 * throws (the unique email index refused it), the new claim goes to whoever holds the address and
 * the error stands. With `where`, a compare-and-set on the address the caller saw (and on
 * `emailVerified` when given; updateUserWhereEmail). Null when the user is gone (or no longer matches).
 */
export async function updateUserMovingAddress(
  writer: UserWriter,
  user: Pick<UserDoc, "_id" | "email">,
  fields: Partial<Omit<UserDoc, "_id" | "createdAt">>,
  now: Date,
  where?: { emailVerified?: boolean },
): Promise<UserDoc | null | "taken"> {
  const { collections } = writer;
  // docs/scale.md: of users moving to one address, the claim lets one win.
  const moving = fields.email !== undefined && fields.email !== user.email ? fields.email : undefined;
  if (moving !== undefined && !(await takeEmailClaim(collections, moving, user._id, now))) return "taken";
  let updated: UserDoc | null;
  try {
    updated =
      where === undefined
        ? await updateUserFields(writer, user._id, fields)
        : await updateUserWhereEmail(writer, user._id, user.email, where.emailVerified, fields);
  } catch (error) {
    if (moving !== undefined) await repairEmailClaim(collections, moving, now);
    throw error;
  }
  if (moving !== undefined) await releaseEmail(collections, updated ? user.email : moving, user._id);
  return updated;
}

/** The fields a member list shows of each user (organization listings, members/types.ts MemberUser). */
export type MemberUserFields = Pick<UserDoc, "_id" | "name" | "email" | "image">;

/** The shown fields of the users of `ids` that exist (one `$in` read by `_id`). */
export function findMemberUsers(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<MemberUserFields[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return findPage(collections.users, memberUsersQuery(ids));
}

/** findMemberUsers, its documents left as BSON (db/raw-page.ts); at least one id. */
export function findMemberUsersRaw(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<RawPage<MemberUserFields>> {
  return findRawPage(collections.users, memberUsersQuery(ids));
}

function memberUsersQuery(ids: readonly ObjectId[]): PageQuery<UserDoc> {
  return {
    filter: { _id: { $in: [...ids] } },
    projection: { name: 1, email: 1, image: 1 },
    limit: ids.length,
  };
}

/** How many users match (admin list-users' total, the dashboard's counts). */
export function countUsers(collections: Collections, filter: Filter<UserDoc>): Promise<number> {
  return collections.users.countDocuments(filter);
}

/** A page of admin list-users: the users `filter` matches, in `page`'s order. */
export function findUsersPage(
  collections: Collections,
  filter: Filter<UserDoc>,
  page: { sort: Record<string, 1 | -1>; offset: number; limit: number },
): Promise<UserDoc[]> {
  return collections.users.find(filter).sort(page.sort).skip(page.offset).limit(page.limit).toArray();
}

/** The users of `ids` that exist, in no order (one `$in` read by `_id`; at least one id). */
export function findUsersByIds(collections: Collections, ids: readonly ObjectId[]): Promise<UserDoc[]> {
  return findPage(collections.users, { filter: { _id: { $in: [...ids] } }, limit: ids.length });
}

/** Users per stored role value (comma separated, or absent → null), as the database groups them. */
export async function countUsersByStoredRole(
  collections: Collections,
): Promise<{ role: string | null; count: number }[]> {
  const groups = await collections.users
    .aggregate<{ _id: unknown; count: number }>([{ $group: { _id: "$role", count: { $sum: 1 } } }])
    .toArray();
  return groups.map((group) => ({
    role: typeof group._id === "string" ? group._id : null,
    count: group.count,
  }));
}

/**
 * When each user created at or after `from` signed up; nothing else of them (indexed: createdAt).
 * Read bare rather than counted per day: FerretDB v1 has $group but no date operators
 * ($dateToString, $dateTrunc: "not implemented"), and it scans for a range count, so one count per
 * day cost 30 scans (2.5 s for 1,500 users, measured) where one read of the dates costs one (0.1 s).
 */
export async function findSignUpDatesSince(collections: Collections, from: Date): Promise<Date[]> {
  const rows = await collections.users
    .find({ createdAt: { $gte: from } }, { projection: { _id: 0, createdAt: 1 } })
    .toArray();
  return rows.map((row) => row.createdAt);
}

/** `tessera doctor`'s and `tessera import`'s view of the users (db/stored-rows.ts): reads only. */
export function userRowsForChecks(collections: Collections): StoredRows {
  return storedRowsOf(collections.users);
}

/** The number of users, from the collection's metadata (one command, no scan). */
export function countAllUsers(collections: Collections): Promise<number> {
  return collections.users.estimatedDocumentCount();
}

/** Every user's address, streamed (repairs.ts: the claims' check). */
export function readUserAddresses(collections: Collections): AsyncIterable<Pick<UserDoc, "_id" | "email">> {
  return collections.users.find({}, { projection: { email: 1 } });
}

/** Every user's sign-up time, streamed (repairs.ts: the timeline's check). */
export function readUserSignUps(collections: Collections): AsyncIterable<Pick<UserDoc, "_id" | "createdAt">> {
  return collections.users.find({}, { projection: { _id: 1, createdAt: 1 } });
}

/** Which of the users of `ids` exist (hex ids; one `$in` read by `_id`, ids only). */
export async function findPresentUserIds(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<Set<string>> {
  const found = await collections.users
    .find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } })
    .toArray();
  return new Set(found.map((user) => user._id.toHexString()));
}
