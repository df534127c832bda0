import type { Filter, ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import type { AuditEventDoc, SessionDoc, UserDoc } from "../../db/documents.ts";
import type { UserPage } from "./list-users-query.ts";

/** The admin area's own queries; user and session writes go through users/ and session/. */
export function findUsersPage(
  collections: Collections,
  filter: Filter<UserDoc>,
  page: UserPage,
): Promise<UserDoc[]> {
  return collections.users.find(filter).sort(page.sort).skip(page.offset).limit(page.limit).toArray();
}

export function countUsers(collections: Collections, filter: Filter<UserDoc>): Promise<number> {
  return collections.users.countDocuments(filter);
}

/** The impersonation sessions an admin started (revoked when the admin loses the right). */
export async function deleteImpersonationSessionsBy(
  collections: Collections,
  adminId: ObjectId,
): Promise<number> {
  const result = await collections.sessions.deleteMany({ impersonatedBy: adminId });
  return result.deletedCount;
}

export function findSessionById(collections: Collections, id: ObjectId): Promise<SessionDoc | null> {
  return collections.sessions.findOne({ _id: id });
}

/** Deletes one session by id; the delete count says whether this call removed it. */
export async function deleteSessionById(collections: Collections, id: ObjectId): Promise<boolean> {
  const result = await collections.sessions.deleteOne({ _id: id });
  return result.deletedCount === 1;
}

export async function insertAuditEvent(collections: Collections, doc: AuditEventDoc): Promise<void> {
  await collections.auditEvents.insertOne(doc);
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
