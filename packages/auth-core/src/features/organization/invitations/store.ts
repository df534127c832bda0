import type { ObjectId } from "mongodb";
import type { Collections } from "../../../db/collections.ts";
import { insertManyIgnoringDuplicates } from "../../../db/connect.ts";
import type { InvitationDoc, InvitationStatus } from "../../../db/documents.ts";
import { findPage, type PageQuery } from "../../../db/find-page.ts";
import { findRawPage, type RawPage } from "../../../db/raw-page.ts";
import { type StoredRows, storedRowsOf } from "../../../db/stored-rows.ts";
import {
  deleteRowsWithEvents,
  type EventDoc,
  type EventSource,
  eventOf,
  pushEvents,
  startRelay,
} from "../../events/index.ts";
import { bumpListings } from "../organizations/store.ts";

/**
 * Invitations: the only MongoDB access for them. Each write that changes what an organization's
 * invitation list shows bumps its listing version (organizations/store.ts bumpListings).
 */

/** What a write to one invitation needs to know of it (its events name the address). */
export type InvitationRef = Pick<InvitationDoc, "_id" | "organizationId" | "email">;

/** The invitations' events (features/events): created with the insert, its fate with the status it ends in. */
export const invitationEventSource: EventSource = {
  name: "invitations",
  collection: (collections) => collections.invitations,
};

const FATE_EVENTS = {
  accepted: "invitation.accepted",
  rejected: "invitation.rejected",
  canceled: "invitation.canceled",
} as const;

function invitationFateEvent(
  type: (typeof FATE_EVENTS)[keyof typeof FATE_EVENTS],
  invitation: Pick<InvitationDoc, "_id" | "organizationId" | "email">,
  at: Date,
): EventDoc {
  const data = {
    invitationId: invitation._id.toHexString(),
    organizationId: invitation.organizationId.toHexString(),
    email: invitation.email,
  };
  return eventOf(type, at, { organizationId: invitation.organizationId }, data);
}

/**
 * Throws the driver's duplicate-key error when the slot (one pending per address) is taken.
 * Writes invitation.created with it (relayed after the answer).
 */
export async function insertInvitation(collections: Collections, doc: InvitationDoc): Promise<void> {
  const event = eventOf(
    "invitation.created",
    collections.eventHub.now(),
    { organizationId: doc.organizationId, userId: doc.inviterId },
    {
      invitationId: doc._id.toHexString(),
      organizationId: doc.organizationId.toHexString(),
      email: doc.email,
      role: doc.role,
      teamId: doc.teamId ?? null,
      inviterId: doc.inviterId.toHexString(),
    },
  );
  await collections.invitations.insertOne({ ...doc, _events: [event] });
  startRelay(collections, [event]);
  await bumpListings(collections, [doc.organizationId]);
}

export function findInvitationById(collections: Collections, id: ObjectId): Promise<InvitationDoc | null> {
  return collections.invitations.findOne({ _id: id });
}

export function findInvitationBySlot(collections: Collections, slot: string): Promise<InvitationDoc | null> {
  return collections.invitations.findOne({ slot: { $eq: slot } });
}

/** Writes an invitation's final state and frees its pending slot (only after its claim was won). */
export async function setInvitationStatus(
  collections: Collections,
  invitation: InvitationRef,
  status: InvitationStatus,
  slot: string,
): Promise<void> {
  const type = status === "pending" ? null : FATE_EVENTS[status];
  const events = type ? [invitationFateEvent(type, invitation, collections.eventHub.now())] : [];
  await collections.invitations.updateOne(
    { _id: invitation._id },
    { $set: { status, slot }, ...pushEvents(events) },
  );
  if (events.length > 0) startRelay(collections, events);
  await bumpListings(collections, [invitation.organizationId]);
}

/** Re-arms a pending invitation (resend): new expiry, role, teams and inviter. */
export async function renewInvitation(
  collections: Collections,
  id: ObjectId,
  fields: Pick<InvitationDoc, "expiresAt" | "role" | "teamId" | "inviterId">,
): Promise<InvitationDoc | null> {
  const renewed = await collections.invitations.findOneAndUpdate(
    { _id: id, status: "pending" },
    { $set: fields },
    { returnDocument: "after" },
  );
  if (renewed) await bumpListings(collections, [renewed.organizationId]);
  return renewed;
}

/** Frees the pending slot of an invitation that expired, so the address can be invited again. */
export async function closeInvitationSlot(
  collections: Collections,
  id: ObjectId,
  slot: string,
): Promise<void> {
  await collections.invitations.updateOne({ _id: id }, { $set: { slot } });
}

/** Pending and unexpired at `now`; with `now` null, every pending one (an operator's count). */
export function countPendingInvitations(
  collections: Collections,
  organizationId: ObjectId,
  now: Date | null,
): Promise<number> {
  return collections.invitations.countDocuments({
    organizationId,
    status: "pending",
    ...(now === null ? {} : { expiresAt: { $gt: now } }),
  });
}

/** Newest first, one page. */
export function listOrganizationInvitations(
  collections: Collections,
  organizationId: ObjectId,
  limit: number,
  offset = 0,
): Promise<InvitationDoc[]> {
  return findPage(collections.invitations, organizationInvitationsQuery(organizationId, limit, offset));
}

/** listOrganizationInvitations, its documents left as BSON (db/raw-page.ts). */
export function listOrganizationInvitationsRaw(
  collections: Collections,
  organizationId: ObjectId,
  limit: number,
): Promise<RawPage<InvitationDoc>> {
  return findRawPage(collections.invitations, organizationInvitationsQuery(organizationId, limit, 0));
}

function organizationInvitationsQuery(
  organizationId: ObjectId,
  limit: number,
  offset: number,
): PageQuery<InvitationDoc> {
  return {
    filter: { organizationId },
    sort: { createdAt: -1, _id: -1 },
    skip: offset,
    limit,
  };
}

export function listPendingInvitationsByEmail(
  collections: Collections,
  email: string,
  now: Date,
  limit: number,
): Promise<InvitationDoc[]> {
  return collections.invitations
    .find({ email: { $eq: email }, status: "pending", expiresAt: { $gt: now } })
    .sort({ createdAt: -1 })
    .limit(limit)
    .toArray();
}

/** True for the one caller whose delete removed it. */
export async function deleteInvitationById(
  collections: Collections,
  invitation: InvitationRef,
): Promise<boolean> {
  // Taken back after its insert (invitations/service.ts withdrawInvitation): its invitation.created
  // may be stored already, so it ends as canceled.
  const event = invitationFateEvent("invitation.canceled", invitation, collections.eventHub.now());
  const removed = await deleteRowsWithEvents(
    collections,
    invitationEventSource,
    [{ _id: invitation._id, event }],
    (ids) => collections.invitations.deleteMany({ _id: { $in: ids } }).then((result) => result.deletedCount),
  );
  if (removed !== 1) return false;
  await bumpListings(collections, [invitation.organizationId]);
  return true;
}

/**
 * The pending invitations the user sent in these organizations (deleting the user: their slots are
 * freed with them). Returns how many went.
 */
export async function deleteInviterPendingInvitations(
  collections: Collections,
  organizationIds: readonly ObjectId[],
  inviterId: ObjectId,
): Promise<number> {
  const result = await collections.invitations.deleteMany({
    organizationId: { $in: [...organizationIds] },
    inviterId,
    status: "pending",
  });
  if (result.deletedCount > 0) await bumpListings(collections, organizationIds);
  return result.deletedCount;
}

/**
 * Pending invitations that expired at or before `shownUntil` (cleanup: an expired invitation stays
 * shown a while, docs/decisions/). Their organizations are read first, so each one's listing is
 * bumped after the delete. Returns how many went.
 */
export async function deleteStalePendingInvitations(
  collections: Collections,
  shownUntil: Date,
): Promise<number> {
  const stale = { status: "pending" as const, expiresAt: { $lte: shownUntil } };
  const listed = await collections.invitations.distinct("organizationId", stale);
  const result = await collections.invitations.deleteMany(stale);
  await bumpListings(collections, listed);
  return result.deletedCount;
}

/**
 * Invitations whose `field` is one of `values`, pending ones only with `pendingOnly` (an operator's
 * repair of orphans); the organizations of those read are bumped. How many went.
 */
export async function deleteInvitationsWhere(
  collections: Collections,
  field: "_id" | "organizationId",
  values: readonly unknown[],
  pendingOnly: boolean,
): Promise<number> {
  const filter = { [field]: { $in: [...values] }, ...(pendingOnly ? { status: "pending" as const } : {}) };
  const rows = await collections.invitations
    .find(filter, { projection: { _id: 1, organizationId: 1 } })
    .toArray();
  if (rows.length === 0) return 0;
  const result = await collections.invitations.deleteMany({
    ...filter,
    _id: { $in: rows.map((row) => row._id) },
  });
  await bumpListings(collections, organizationsOf(rows));
  return result.deletedCount;
}

/** The organization is gone (its delete cascade): no listing of it is served, nothing to bump. */
export async function deleteOrganizationInvitations(
  collections: Collections,
  organizationId: ObjectId,
): Promise<void> {
  await collections.invitations.deleteMany({ organizationId });
}

/** Every invitation to the address, any status, at most `limit` (the user's data export). */
export function findInvitationsToEmail(
  collections: Collections,
  email: string,
  limit: number,
): Promise<InvitationDoc[]> {
  return collections.invitations
    .find({ email: { $eq: email } })
    .limit(limit)
    .toArray();
}

/** Every invitation the user sent, any status, at most `limit` (the user's data export; index 0011). */
export function findInvitationsSentBy(
  collections: Collections,
  inviterId: ObjectId,
  limit: number,
): Promise<InvitationDoc[]> {
  return collections.invitations.find({ inviterId }).limit(limit).toArray();
}

/**
 * Rows an operator imports (`tessera import`), unordered: returns the positions a unique index
 * refused. The organizations of the rows written are bumped.
 */
export async function insertInvitationsInBulk(
  collections: Collections,
  docs: InvitationDoc[],
): Promise<Set<number>> {
  const refused = await insertManyIgnoringDuplicates(collections.invitations, docs);
  const written = docs.filter((_, index) => !refused.has(index));
  await bumpListings(collections, organizationsOf(written));
  return refused;
}

/** Each organization of `rows` once. */
function organizationsOf(rows: readonly { organizationId: ObjectId }[]): ObjectId[] {
  return [...new Map(rows.map((row) => [row.organizationId.toHexString(), row.organizationId])).values()];
}

/** `tessera doctor`'s view of the invitations (db/stored-rows.ts): reads only, deletes go through deleteOrphanRows. */
export function invitationRowsForChecks(collections: Collections): StoredRows {
  return storedRowsOf(collections.invitations);
}
