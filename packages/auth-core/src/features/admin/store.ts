import type { Filter } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import type { AuditEventDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";

export { deleteImpersonationSessionsBy, deleteSessionById, findSessionById } from "../session/index.ts";
/**
 * The owner of `auditEvents`. The admin area's reads of users (list-users' pages and counts) and of
 * sessions (revoke, the impersonations an admin started) are their owners', through the users and
 * session faces.
 */
export {
  countUsers,
  findUsersByEmailPrefix,
  findUsersPage,
  findUsersPageByTimeline,
  type UsersPage,
} from "../users/index.ts";

export async function insertAuditEvent(collections: Collections, doc: AuditEventDoc): Promise<void> {
  await collections.auditEvents.insertOne(doc);
}

/** The audit trail about one user, oldest first (the user's data export; at most `limit`). */
export function findAuditEventsAbout(
  collections: Collections,
  subjectId: ObjectId,
  limit: number,
): Promise<AuditEventDoc[]> {
  return collections.auditEvents.find({ subjectId }).sort({ createdAt: 1, _id: 1 }).limit(limit).toArray();
}

export interface AuditFilter {
  actorId?: ObjectId;
  subjectId?: ObjectId;
  action?: string;
}

export function findAuditEvents(
  collections: Collections,
  filter: AuditFilter,
  limit: number,
  offset: number,
): Promise<AuditEventDoc[]> {
  return collections.auditEvents
    .find(filter)
    .sort({ createdAt: -1, _id: -1 })
    .skip(offset)
    .limit(limit)
    .toArray();
}

export function countAuditEvents(collections: Collections, filter: AuditFilter): Promise<number> {
  return collections.auditEvents.countDocuments(filter);
}

/**
 * One organization's audit trail: the rows whose `details.organizationId` is it (every organization
 * action writes it), by a member who acted or was acted on, an action and a time range.
 */
export interface OrganizationAuditFilter {
  organizationId: string;
  userId?: ObjectId;
  action?: string;
  from?: Date;
  to?: Date;
}

function toOrganizationAuditQuery(filter: OrganizationAuditFilter): Filter<AuditEventDoc> {
  const createdAt = {
    ...(filter.from ? { $gte: filter.from } : {}),
    ...(filter.to ? { $lte: filter.to } : {}),
  };
  return {
    "details.organizationId": { $eq: filter.organizationId },
    ...(filter.userId ? { $or: [{ actorId: filter.userId }, { subjectId: filter.userId }] } : {}),
    ...(filter.action ? { action: { $eq: filter.action } } : {}),
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
  };
}

/** A page of one organization's audit trail, newest first, and how many rows match in all. */
export async function findOrganizationAuditEvents(
  collections: Collections,
  filter: OrganizationAuditFilter,
  limit: number,
  offset: number,
): Promise<{ events: AuditEventDoc[]; total: number }> {
  const query = toOrganizationAuditQuery(filter);
  const [events, total] = await Promise.all([
    collections.auditEvents.find(query).sort({ createdAt: -1, _id: -1 }).skip(offset).limit(limit).toArray(),
    collections.auditEvents.countDocuments(query),
  ]);
  return { events, total };
}
