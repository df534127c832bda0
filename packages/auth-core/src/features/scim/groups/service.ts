import type { AuthContext } from "../../../context.ts";
import type { AuditAction } from "../../../contracts/admin-fields.ts";
import type { ScimGroupDoc, TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import {
  addTeamMemberWithinLimit,
  clearMembersTeam,
  createTeamWithinLimit,
  deleteTeam,
  findMember,
  findOrganizationTeams,
  findTeamByIdOrName,
  forgetActiveTeam,
  listTeamMembers,
  renameTeam,
  setTeamMemberRole,
  TEAM_MEMBER_ROLE,
  takeUserOutOfTeam,
  teamRoleTablesOf,
} from "../../organization/index.ts";
import { recordScimChange } from "../audit.ts";
import type { ScimCaller } from "../endpoints/serve.ts";
import { ScimError } from "../protocol/scim-error.ts";
import type { GroupChanges, MemberChange } from "./input.ts";
import * as store from "./store.ts";

/**
 * The directory's groups of one organization as teams (docs/security.md "SCIM"): a group is a team
 * the directory made (its id and displayName are the team's), its members the team's members, each
 * holding the group's team role. Every change goes through the teams' owner, which writes the
 * events; every write is audited as `scim:<token id>`.
 */

/** A team's members as one group answers them (RFC 7644 leaves paging members out). */
export const MAX_GROUP_MEMBERS = 10_000;

export interface ScimGroupRecord {
  group: ScimGroupDoc;
  team: TeamDoc;
  members: TeamMemberDoc[];
}

export async function findScimGroupRecord(
  auth: AuthContext,
  caller: ScimCaller,
  id: string,
): Promise<ScimGroupRecord> {
  const teamId = /^[0-9a-f]{24}$/i.test(id) ? new ObjectId(id) : null;
  const group = teamId ? await store.findScimGroup(auth.collections, caller.organizationId, teamId) : null;
  const [team] = group ? await findOrganizationTeams(auth, caller.organizationId, [group.teamId]) : [];
  if (!group || !team) throw new ScimError(404, `Group ${id} not found`);
  return { group, team, members: await listTeamMembers(auth, team._id, MAX_GROUP_MEMBERS, 0) };
}

export async function createScimGroup(
  auth: AuthContext,
  caller: ScimCaller,
  input: GroupChanges & { displayName: string },
): Promise<ScimGroupRecord> {
  const role = input.role === undefined || input.role === null ? null : checkRole(auth, input.role);
  await assertNameFree(auth, caller, input.displayName, null);
  const { adding, skipped } = await sortMembers(auth, caller, applyMemberChanges([], input.members));
  const team = await createTeamWithinLimit(auth, caller.organizationId, input.displayName);
  if (!team) throw new ScimError(400, "The organization has reached its team limit", "invalidValue");
  const now = auth.now();
  const group: ScimGroupDoc = {
    _id: new ObjectId(),
    organizationId: caller.organizationId,
    teamId: team._id,
    externalId: input.externalId ?? null,
    role,
    tokenId: caller.tokenId,
    createdAt: now,
    updatedAt: now,
  };
  await store.insertScimGroup(auth.collections, group);
  await audit(auth, caller, "organization.scim-group-create", null, team, {
    role: role ?? TEAM_MEMBER_ROLE,
    ...skippedDetails(skipped),
  });
  const record: ScimGroupRecord = { group, team, members: [] };
  return { ...record, members: await addMembers(auth, caller, record, adding) };
}

/** PUT (members replaced) and PATCH (member changes in order). */
export async function updateScimGroup(
  auth: AuthContext,
  caller: ScimCaller,
  record: ScimGroupRecord,
  changes: GroupChanges,
): Promise<ScimGroupRecord> {
  let { group, team } = record;
  const role =
    changes.role === undefined ? group.role : changes.role === null ? null : checkRole(auth, changes.role);
  const memberRole = role ?? TEAM_MEMBER_ROLE;
  const current = record.members.map((row) => row.userId.toHexString());
  const wanted = applyMemberChanges(current, changes.members);
  const { adding, skipped } = await sortMembers(
    auth,
    caller,
    wanted.filter((id) => !current.includes(id)),
  );
  const removing = record.members.filter((row) => !wanted.includes(row.userId.toHexString()));
  const renamed = changes.displayName !== undefined && changes.displayName !== team.name;
  if (renamed) await assertNameFree(auth, caller, changes.displayName!, team._id);
  const fields: Partial<Pick<ScimGroupDoc, "externalId" | "role">> = {};
  if (changes.externalId !== undefined && changes.externalId !== group.externalId)
    fields.externalId = changes.externalId;
  if (role !== group.role) fields.role = role;
  if (renamed) team = (await renameTeam(auth, team._id, changes.displayName!)) ?? team;
  const changed = renamed || Object.keys(fields).length > 0;
  if (changed)
    group =
      (await store.updateScimGroup(auth.collections, group._id, { ...fields, updatedAt: auth.now() })) ??
      group;
  if (changed || skipped.length > 0)
    await audit(auth, caller, "organization.scim-group-update", null, team, {
      fields: [...(renamed ? ["displayName"] : []), ...Object.keys(fields)],
      ...skippedDetails(skipped),
    });
  for (const row of removing) {
    if (await takeUserOutOfTeam(auth, team._id, row.userId)) {
      await forgetActiveTeam(auth, team._id, row.userId);
      await audit(auth, caller, "organization.remove-team-member", row.userId, team, {});
    }
  }
  const kept = record.members.filter((row) => wanted.includes(row.userId.toHexString()));
  for (const row of kept) {
    if ((row.role ?? TEAM_MEMBER_ROLE) === memberRole) continue;
    await setTeamMemberRole(auth, team._id, row.userId, memberRole);
    await audit(auth, caller, "organization.set-team-member-role", row.userId, team, {
      role: memberRole,
      previousRole: row.role ?? TEAM_MEMBER_ROLE,
    });
  }
  const next: ScimGroupRecord = { group, team, members: [] };
  await addMembers(auth, caller, next, adding);
  return { ...next, members: await listTeamMembers(auth, team._id, MAX_GROUP_MEMBERS, 0) };
}

/**
 * DELETE: the team goes through the teams' owner, then its memberships, and no session keeps it
 * active. Even the organization's last team goes: the directory made it, and keeping it would leave
 * the directory and Tessera disagreeing (`teams.allowRemovingAllTeams` guards the app's teams;
 * docs/security.md "SCIM"). Memberships added while the team went are taken out by a second read.
 */
export async function deleteScimGroup(
  auth: AuthContext,
  caller: ScimCaller,
  record: ScimGroupRecord,
): Promise<void> {
  const { group, team } = record;
  await deleteTeam(auth, team);
  await store.deleteScimGroup(auth.collections, group._id);
  const late = await listTeamMembers(auth, team._id, MAX_GROUP_MEMBERS, 0);
  for (const row of [...record.members, ...late]) await takeUserOutOfTeam(auth, team._id, row.userId);
  await clearMembersTeam(auth, team.organizationId, team._id);
  await forgetActiveTeam(auth, team._id);
  await audit(auth, caller, "organization.scim-group-delete", null, team, {});
}

/** The member ids after PATCH's changes in order (Okta's replace, Entra's filtered remove). */
function applyMemberChanges(current: readonly string[], changes: readonly MemberChange[]): string[] {
  let ids = current.map((id) => id.toLowerCase());
  for (const change of changes) {
    if (change.kind === "remove-all") ids = [];
    else {
      const named = change.ids.map((id) => id.toLowerCase());
      if (change.kind === "replace") ids = [...new Set(named)];
      else if (change.kind === "add") ids = [...new Set([...ids, ...named])];
      else ids = ids.filter((id) => !named.includes(id));
    }
  }
  return ids;
}

/**
 * Splits the ids a directory names into members of the organization (a provisioned, active user, or
 * one who joined) and the rest, which are skipped, never added (docs/security.md "SCIM"): an id of
 * nobody, of another organization's user, or no id at all alike — one lookup each, one outcome, so
 * the answer tells no tenant's users apart from nobody. The group the directory gets back shows the
 * members as stored, so it sees what was not added (scim-sanity's probe adds `fake-member-id`).
 */
async function sortMembers(
  auth: AuthContext,
  caller: ScimCaller,
  ids: readonly string[],
): Promise<{ adding: ObjectId[]; skipped: string[] }> {
  const adding: ObjectId[] = [];
  const skipped: string[] = [];
  for (const id of ids) {
    const userId = /^[0-9a-f]{24}$/.test(id) ? new ObjectId(id) : null;
    if (userId && (await findMember(auth, caller.organizationId, userId))) adding.push(userId);
    else skipped.push(id);
  }
  return { adding, skipped };
}

/** At most this many skipped values are written into one audit entry; the count says how many in all. */
const MAX_AUDITED_SKIPS = 100;

function skippedDetails(skipped: readonly string[]): Record<string, unknown> {
  if (skipped.length === 0) return {};
  return { skippedMembers: skipped.slice(0, MAX_AUDITED_SKIPS), skippedMemberCount: skipped.length };
}

async function addMembers(
  auth: AuthContext,
  caller: ScimCaller,
  record: ScimGroupRecord,
  userIds: readonly ObjectId[],
): Promise<TeamMemberDoc[]> {
  const added: TeamMemberDoc[] = [];
  for (const userId of userIds) {
    const role = record.group.role ?? TEAM_MEMBER_ROLE;
    const result = await addTeamMemberWithinLimit(auth, record.team, userId, role);
    if (!result.ok && result.reason === "limit")
      throw new ScimError(400, "The team has reached its membership limit", "invalidValue");
    if (!result.ok) continue;
    added.push(result.value);
    await audit(auth, caller, "organization.add-team-member", userId, record.team, { role });
  }
  return added;
}

function checkRole(auth: AuthContext, role: string): string {
  if (!Object.hasOwn(teamRoleTablesOf(auth).team, role))
    throw new ScimError(400, `Unknown team role '${role}'`, "invalidValue");
  return role;
}

/** A group's displayName names one team of the organization, any case (Entra and Okta find groups by it). */
async function assertNameFree(
  auth: AuthContext,
  caller: ScimCaller,
  name: string,
  self: ObjectId | null,
): Promise<void> {
  const team = await findTeamByIdOrName(auth, caller.organizationId, name);
  if (team && team.name.toLowerCase() === name.toLowerCase() && !(self && team._id.equals(self)))
    throw new ScimError(409, `Group ${name} already exists in this organization`, "uniqueness");
}

function audit(
  auth: AuthContext,
  caller: ScimCaller,
  action: AuditAction,
  subjectId: ObjectId | null,
  team: TeamDoc,
  details: Record<string, unknown>,
): Promise<void> {
  return recordScimChange(auth, caller, action, subjectId, { teamId: team._id.toHexString(), ...details });
}
