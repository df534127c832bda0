import type { ObjectId } from "mongodb";
import type { Collections } from "../../../db/collections.ts";
import type { InvitationDoc, InvitationStatus } from "../../../db/documents.ts";
import { findPage, type PageQuery } from "../../../db/find-page.ts";
import { findRawPage, type RawPage } from "../../../db/raw-page.ts";

/** Invitations: the only MongoDB access for them. */

/** Throws the driver's duplicate-key error when the slot (one pending per address) is taken. */
export async function insertInvitation(collections: Collections, doc: InvitationDoc): Promise<void> {
  await collections.invitations.insertOne(doc);
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
  id: ObjectId,
  status: InvitationStatus,
  slot: string,
): Promise<void> {
  await collections.invitations.updateOne({ _id: id }, { $set: { status, slot } });
}

/** Re-arms a pending invitation (resend): new expiry, role, teams and inviter. */
export function renewInvitation(
  collections: Collections,
  id: ObjectId,
  fields: Pick<InvitationDoc, "expiresAt" | "role" | "teamId" | "inviterId">,
): Promise<InvitationDoc | null> {
  return collections.invitations.findOneAndUpdate(
    { _id: id, status: "pending" },
    { $set: fields },
    { returnDocument: "after" },
  );
}

/** Frees the pending slot of an invitation that expired, so the address can be invited again. */
export async function closeInvitationSlot(
  collections: Collections,
  id: ObjectId,
  slot: string,
): Promise<void> {
  await collections.invitations.updateOne({ _id: id }, { $set: { slot } });
}

export function countPendingInvitations(
  collections: Collections,
  organizationId: ObjectId,
  now: Date,
): Promise<number> {
  return collections.invitations.countDocuments({
    organizationId,
    status: "pending",
    expiresAt: { $gt: now },
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
export async function deleteInvitationById(collections: Collections, id: ObjectId): Promise<boolean> {
  const result = await collections.invitations.deleteOne({ _id: id });
  return result.deletedCount === 1;
}

export async function deleteOrganizationInvitations(
  collections: Collections,
  organizationId: ObjectId,
): Promise<void> {
  await collections.invitations.deleteMany({ organizationId });
}
