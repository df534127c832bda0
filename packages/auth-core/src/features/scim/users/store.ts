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
    .find(withinOrganization(filter, organizationId))
    .sort({ organizationId: 1, userId: 1 })
    .skip(page.offset)
    .limit(page.limit)
    .toArray();
}

/** The user ids of the organization's rows `filter` matches, at most `limit` (the userId index). */
export async function listScimUserIds(
  collections: Collections,
  organizationId: ObjectId,
  filter: ScimUserFilter,
  limit: number,
): Promise<ObjectId[]> {
  const rows = await collections.scimUsers
    .find(withinOrganization(filter, organizationId), { projection: { userId: 1 } })
    .limit(limit)
    .toArray();
  return rows.map((row) => row.userId);
}

export function countScimUsers(
  collections: Collections,
  organizationId: ObjectId,
  filter: ScimUserFilter,
): Promise<number> {
  return collections.scimUsers.countDocuments(withinOrganization(filter, organizationId));
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

/**
 * Rows the SCIM scale bench (bench/scim-scale.ts) writes at once, unordered.
 * @internal Exported for the bench.
 */
export async function insertScimUsersInBulk(collections: Collections, docs: ScimUserDoc[]): Promise<void> {
  if (docs.length > 0) await collections.scimUsers.insertMany(docs, { ordered: false });
}

/**
 * The filter with the organization as a top-level equality (the translated filter never names
 * organizationId: filter/attributes.ts): FerretDB v1 uses the (organizationId, …) indexes only for
 * top-level conditions, not inside `$and` (bench/scim-scale.ts).
 */
export function withinOrganization(filter: ScimUserFilter, organizationId: ObjectId): ScimUserFilter {
  return { ...filter, organizationId };
}
