import type { Collections } from "../../../db/collections.ts";
import { isDuplicateKeyError } from "../../../db/connect.ts";
import type { ScimUserDoc } from "../../../db/documents.ts";
import type { ObjectId } from "../../../db/ids.ts";

/**
 * The owner of `scimUsers`: the directory's record of a user in an organization (features/scim).
 * Indexes (db/migrations/0018-scim.ts): (organizationId, userId) unique — lists page in that order —
 * and (organizationId, externalId); (organizationId, userNameKey) unique (0020-scim-groups.ts). Rows carry no events: the membership and account changes they
 * follow are written, with their events, by their own owners.
 */

export type ScimUserFilter = Record<string, unknown>;

/** "exists": the user already has a row in this organization (the unique index decides a race). */
export async function insertScimUser(
  collections: Collections,
  doc: ScimUserDoc,
): Promise<"stored" | "exists"> {
  try {
    await collections.scimUsers.insertOne(doc);
    return "stored";
  } catch (error) {
    if (isDuplicateKeyError(error)) return "exists";
    throw error;
  }
}

export function findScimUser(
  collections: Collections,
  organizationId: ObjectId,
  userId: ObjectId,
): Promise<ScimUserDoc | null> {
  return collections.scimUsers.findOne({ organizationId, userId });
}

/** One page in user-id order, within the organization, whatever `filter` says. */
export function findScimUsersPage(
  collections: Collections,
  organizationId: ObjectId,
  filter: ScimUserFilter,
  page: { offset: number; limit: number },
): Promise<ScimUserDoc[]> {
  return collections.scimUsers
    .find({ $and: [filter, { organizationId }] })
    .sort({ organizationId: 1, userId: 1 })
    .skip(page.offset)
    .limit(page.limit)
    .toArray();
}

export function countScimUsers(
  collections: Collections,
  organizationId: ObjectId,
  filter: ScimUserFilter,
): Promise<number> {
  return collections.scimUsers.countDocuments({ $and: [filter, { organizationId }] });
}

/** The row after the write; null when gone; "exists" when the new userName is another row's. */
export async function updateScimUser(
  collections: Collections,
  id: ObjectId,
  fields: Partial<Omit<ScimUserDoc, "_id" | "organizationId" | "userId">>,
): Promise<ScimUserDoc | null | "exists"> {
  try {
    return await collections.scimUsers.findOneAndUpdate(
      { _id: id },
      { $set: fields },
      { returnDocument: "after" },
    );
  } catch (error) {
    if (isDuplicateKeyError(error)) return "exists";
    throw error;
  }
}

/** The row of that userName in the organization, any case (index 0020). */
export function findScimUserByName(
  collections: Collections,
  organizationId: ObjectId,
  userName: string,
): Promise<ScimUserDoc | null> {
  return collections.scimUsers.findOne({ organizationId, userNameKey: userName.toLowerCase() });
}

export async function deleteScimUser(collections: Collections, id: ObjectId): Promise<void> {
  await collections.scimUsers.deleteOne({ _id: id });
}
