import type { Collections } from "../../../db/collections.ts";
import type { ScimGroupDoc } from "../../../db/documents.ts";
import type { ObjectId } from "../../../db/ids.ts";
import { withinOrganization } from "../users/store.ts";

/**
 * The owner of `scimGroups`: the directory's record of a group, one per team it made
 * (features/scim/groups). Indexes (db/migrations/0020-scim-groups.ts): (organizationId, teamId)
 * unique — lists page in that order — and (organizationId, externalId). Rows carry no events: the
 * team and team-membership changes they follow are written, with their events, by the teams' owner.
 */

export type ScimGroupFilter = Record<string, unknown>;

export async function insertScimGroup(collections: Collections, doc: ScimGroupDoc): Promise<void> {
  await collections.scimGroups.insertOne(doc);
}

export function findScimGroup(
  collections: Collections,
  organizationId: ObjectId,
  teamId: ObjectId,
): Promise<ScimGroupDoc | null> {
  return collections.scimGroups.findOne({ organizationId, teamId });
}

/** One page in team-id order, within the organization, whatever `filter` says. */
export function findScimGroupsPage(
  collections: Collections,
  organizationId: ObjectId,
  filter: ScimGroupFilter,
  page: { offset: number; limit: number },
): Promise<ScimGroupDoc[]> {
  return collections.scimGroups
    .find(withinOrganization(filter, organizationId))
    .sort({ organizationId: 1, teamId: 1 })
    .skip(page.offset)
    .limit(page.limit)
    .toArray();
}

export function countScimGroups(
  collections: Collections,
  organizationId: ObjectId,
  filter: ScimGroupFilter,
): Promise<number> {
  return collections.scimGroups.countDocuments(withinOrganization(filter, organizationId));
}

export function updateScimGroup(
  collections: Collections,
  id: ObjectId,
  fields: Partial<Pick<ScimGroupDoc, "externalId" | "role" | "updatedAt">>,
): Promise<ScimGroupDoc | null> {
  return collections.scimGroups.findOneAndUpdate({ _id: id }, { $set: fields }, { returnDocument: "after" });
}

export async function deleteScimGroup(collections: Collections, id: ObjectId): Promise<void> {
  await collections.scimGroups.deleteOne({ _id: id });
}
