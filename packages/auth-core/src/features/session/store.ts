import type { Filter, ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import type { SessionDoc } from "../../db/documents.ts";
import { findFirst } from "../../db/find-page.ts";
import { keyedId } from "../../db/ids.ts";
import { type RemovableRows, removableRowsOf } from "../../db/stored-rows.ts";
import {
  deleteRowsWithEvents,
  type EventDoc,
  type EventSource,
  eventOf,
  startRelay,
  WITHOUT_OUTBOX,
} from "../events/index.ts";

/**
 * A session's `_id` follows from its token (db/ids.ts keyedId): every lookup by token is a lookup
 * by `_id`, and the `_id`'s uniqueness is the token's.
 * @internal Exported for the admin tests that find a session by its token.
 */
export const sessionIdOf = (token: string) => keyedId("session", token);

/** The filter of one session by its token: its `_id`, and the token itself for exactness. */
const byToken = (token: string) => ({ _id: sessionIdOf(token), token: { $eq: token } });

/** The sessions' events (features/events): session.created with the insert, session.revoked with a delete. */
export const sessionEventSource: EventSource = {
  name: "sessions",
  collection: (collections) => collections.sessions,
};

function sessionEventOf(
  type: "session.created" | "session.revoked",
  session: Pick<SessionDoc, "_id" | "userId">,
  at: Date,
): EventDoc {
  const data = { sessionId: session._id.toHexString(), userId: session.userId.toHexString() };
  return eventOf(type, at, { userId: session.userId }, data);
}

/**
 * Inserts the session under the `_id` its token gives (set on `doc`, whatever a hook left there),
 * with its session.created event in its outbox (relayed after the answer).
 */
export async function insertSession(collections: Collections, doc: SessionDoc): Promise<void> {
  doc._id = sessionIdOf(doc.token);
  const events = [sessionEventOf("session.created", doc, collections.eventHub.now())];
  await collections.sessions.insertOne({ ...doc, _events: events });
  startRelay(collections, events);
}

/**
 * Deletes the sessions `filter` matches, each with its session.revoked event (features/events
 * deleteRowsWithEvents), reading them first by `_id` and `userId`. A session created while this runs
 * is left (it came after the revocation); answers how many this call deleted.
 */
async function revokeSessionsWhere(collections: Collections, filter: Filter<SessionDoc>): Promise<number> {
  const found = await collections.sessions.find(filter, { projection: { _id: 1, userId: 1 } }).toArray();
  const at = collections.eventHub.now();
  const rows = found.map((session) => ({
    _id: session._id,
    event: sessionEventOf("session.revoked", session, at),
  }));
  return deleteRowsWithEvents(collections, sessionEventSource, rows, (ids) =>
    collections.sessions
      .deleteMany({ $and: [filter, { _id: { $in: ids } }] })
      .then((result) => result.deletedCount),
  );
}

/**
 * Sessions written in bulk under their keyed `_id`s (the bench's seeding).
 * @internal Exported for the scale seed (tests/e2e/scale-seed.ts).
 */
export async function insertSessionsInBulk(collections: Collections, docs: SessionDoc[]): Promise<void> {
  for (const doc of docs) doc._id = sessionIdOf(doc.token);
  for (let start = 0; start < docs.length; start += 1000)
    await collections.sessions.insertMany(docs.slice(start, start + 1000));
}

export function findSessionByToken(collections: Collections, token: string): Promise<SessionDoc | null> {
  return findFirst(collections.sessions, byToken(token), WITHOUT_OUTBOX);
}

export async function deleteSessionByToken(collections: Collections, token: string): Promise<boolean> {
  return (await revokeSessionsWhere(collections, byToken(token))) === 1;
}

/** False when the session is gone (revoked meanwhile). */
export async function updateSessionExpiry(
  collections: Collections,
  id: ObjectId,
  expiresAt: Date,
): Promise<boolean> {
  const result = await collections.sessions.updateOne({ _id: id }, { $set: { expiresAt } });
  return result.matchedCount === 1;
}

export function listUserSessions(
  collections: Collections,
  userId: ObjectId,
  now: Date,
): Promise<SessionDoc[]> {
  return collections.sessions
    .find({ userId, expiresAt: { $gt: now } })
    .sort({ createdAt: -1 })
    .limit(100)
    .toArray();
}

export async function deleteUserSessionByToken(
  collections: Collections,
  userId: ObjectId,
  token: string,
): Promise<boolean> {
  return (await revokeSessionsWhere(collections, { ...byToken(token), userId })) === 1;
}

/** Deletes every session of the user except the one with `keepToken` (when given). */
export async function deleteUserSessions(
  collections: Collections,
  userId: ObjectId,
  keepToken?: string,
): Promise<number> {
  const filter = keepToken === undefined ? { userId } : { userId, token: { $ne: keepToken } };
  return revokeSessionsWhere(collections, filter);
}

/**
 * Signs a user out everywhere: their own sessions (except the one with `keepToken`, when given) AND
 * the impersonation sessions they started as an admin, which carry the impersonated user's id and so
 * escape a delete by `userId`. One command over the `userId` and `impersonatedBy` indexes. The one
 * way to end "all sessions of a user" (deletion, password reset and change).
 */
export async function deleteAllSessionsOfUser(
  collections: Collections,
  userId: ObjectId,
  keepToken?: string,
): Promise<number> {
  const own = keepToken === undefined ? { userId } : { userId, token: { $ne: keepToken } };
  return revokeSessionsWhere(collections, { $or: [own, { impersonatedBy: userId }] });
}

/** A session by id (admin revoke-user-session, the operator's revoke prompt). */
export function findSessionById(collections: Collections, id: ObjectId): Promise<SessionDoc | null> {
  return collections.sessions.findOne({ _id: id }, { projection: WITHOUT_OUTBOX });
}

/** Deletes one session by id; the delete count says whether this call removed it. */
export async function deleteSessionById(collections: Collections, id: ObjectId): Promise<boolean> {
  return (await revokeSessionsWhere(collections, { _id: id })) === 1;
}

/** The impersonation sessions an admin started (revoked when the admin loses the right). */
export async function deleteImpersonationSessionsBy(
  collections: Collections,
  adminId: ObjectId,
): Promise<number> {
  return revokeSessionsWhere(collections, { impersonatedBy: adminId });
}

/** The admin dashboard's active sessions. */
export function countUnexpiredSessions(collections: Collections, now: Date): Promise<number> {
  return collections.sessions.countDocuments({ expiresAt: { $gt: now } });
}

export async function deleteExpiredSessions(collections: Collections, now: Date): Promise<number> {
  const result = await collections.sessions.deleteMany({ expiresAt: { $lte: now } });
  return result.deletedCount;
}

/** The session's active organization and team, written by features/organization. */
export async function setSessionActiveOrganization(
  collections: Collections,
  sessionId: ObjectId,
  activeOrganizationId: string | null,
  activeTeamId: string | null,
): Promise<void> {
  await collections.sessions.updateOne({ _id: sessionId }, { $set: { activeOrganizationId, activeTeamId } });
}

/** setSessionActiveOrganization answering with the stored session (null when gone), for an after hook. */
export function setSessionActiveOrganizationReturning(
  collections: Collections,
  sessionId: ObjectId,
  activeOrganizationId: string | null,
  activeTeamId: string | null,
): Promise<SessionDoc | null> {
  return collections.sessions.findOneAndUpdate(
    { _id: sessionId },
    { $set: { activeOrganizationId, activeTeamId } },
    { returnDocument: "after" },
  );
}

/**
 * clears an organization as the active one — on every session when it is deleted, on one
 * user's sessions when they leave or are removed (indexed by activeOrganizationId / userId).
 */
export async function clearActiveOrganization(
  collections: Collections,
  organizationId: string,
  userId?: ObjectId,
): Promise<void> {
  const filter =
    userId === undefined
      ? { activeOrganizationId: organizationId }
      : { userId, activeOrganizationId: organizationId };
  await collections.sessions.updateMany(filter, { $set: { activeOrganizationId: null, activeTeamId: null } });
}

/** Clears a team as the active one (removed team, or one user removed from it). */
export async function clearActiveTeam(
  collections: Collections,
  teamId: string,
  userId?: ObjectId,
): Promise<void> {
  const filter = userId === undefined ? { activeTeamId: teamId } : { userId, activeTeamId: teamId };
  await collections.sessions.updateMany(filter, { $set: { activeTeamId: null } });
}

export type ActiveField = "activeOrganizationId" | "activeTeamId";

/**
 * The sessions with this organization (or team) active — one user's when given; the filters of
 * clearActiveOrganization / clearActiveTeam (indexed by activeOrganizationId / userId). Only read
 * when a session update after hook must see each cleared session (session/service.ts reportClearedSessions).
 */
export function listSessionsWithActive(
  collections: Collections,
  field: ActiveField,
  value: string,
  userId?: ObjectId,
): AsyncIterable<SessionDoc> {
  const filter = userId === undefined ? { [field]: value } : { userId, [field]: value };
  return collections.sessions.find(filter);
}

/**
 * Clears one session's active organization (and team), or only its team, while it is still
 * `value`. True when this call cleared it.
 */
export async function clearSessionActive(
  collections: Collections,
  sessionId: ObjectId,
  field: ActiveField,
  value: string,
): Promise<boolean> {
  const cleared =
    field === "activeOrganizationId"
      ? { activeOrganizationId: null, activeTeamId: null }
      : { activeTeamId: null };
  const result = await collections.sessions.updateOne({ _id: sessionId, [field]: value }, { $set: cleared });
  return result.matchedCount === 1;
}

/** `tessera doctor`'s view of the sessions (db/stored-rows.ts). */
export function sessionRowsForChecks(collections: Collections): RemovableRows {
  return removableRowsOf(collections.sessions);
}

/** `tessera doctor --fix`: these sessions' active organization (and team) cleared. */
export async function clearStaleActiveOrganizations(
  collections: Collections,
  sessionIds: readonly ObjectId[],
): Promise<number> {
  const result = await collections.sessions.updateMany(
    { _id: { $in: [...sessionIds] } },
    { $set: { activeOrganizationId: null, activeTeamId: null } },
  );
  return result.modifiedCount;
}
