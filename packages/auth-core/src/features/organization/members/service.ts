import type { ResolvedOptions } from "../../../config/options.ts";
import type { AuthContext } from "../../../context.ts";
import { emailField } from "../../../contracts/schemas.ts";
import type { MemberDoc, UserDoc } from "../../../db/documents.ts";
import { ObjectId, parseId } from "../../../db/ids.ts";
import { BsonFields, bsonFieldNames, RawPage, TYPE_OBJECT_ID } from "../../../db/raw-page.ts";
import { clearActiveOrganizationOfSessions } from "../../session/index.ts";
/** The users of members (their shown fields; one by id) are read through their owner, features/users. */
import { findMemberUsers, findMemberUsersRaw, findUserByEmail, findUserById } from "../../users/index.ts";
import { deleteUserTeamMemberships } from "../teams/service.ts";
import { buildRoleTable, holdsRole, type RoleTable } from "./rules.ts";
import { claimSeat, type SeatResult } from "./seats.ts";
import * as store from "./store.ts";
import type { MemberAndUser, RawMemberPairs } from "./types.ts";

/**
 * Members: roles, seats, the sole-owner guard. Uses teams (a member leaving leaves their teams) and
 * the session feature's face; organizations and invitations use this, never the other way round.
 */

const roleTables = new WeakMap<ResolvedOptions, RoleTable>();

/** The role table of this instance (defaults plus configured roles), built once. */
export function roleTableOf(auth: AuthContext): RoleTable {
  let table = roleTables.get(auth.options);
  if (!table) {
    const { roles, creatorRole } = auth.options.organization;
    table = buildRoleTable(roles, creatorRole);
    roleTables.set(auth.options, table);
  }
  return table;
}

export interface NewMember {
  organizationId: ObjectId;
  userId: ObjectId;
  role: string;
  teamId: ObjectId | null;
}

/** Inserts a member within the membership limit (seats.ts explains how the limit holds under races). */
export function addMemberWithinLimit(auth: AuthContext, input: NewMember): Promise<SeatResult<MemberDoc>> {
  const { collections } = auth;
  return claimSeat<MemberDoc>(
    {
      count: () => store.countMembers(collections, input.organizationId),
      takenSeats: () =>
        store.listMemberSeats(collections, input.organizationId, auth.options.organization.membershipLimit),
      isAlreadyIn: async () =>
        (await store.findMember(collections, input.organizationId, input.userId)) !== null,
      insert: async (seat) => {
        const doc: MemberDoc = { _id: new ObjectId(), ...input, createdAt: auth.now(), seat };
        await store.insertMember(collections, doc);
        return doc;
      },
      remove: async (doc) => {
        await store.deleteMemberById(collections, doc);
      },
    },
    auth.options.organization.membershipLimit,
  );
}

/**
 * Takes the creator role away from a member without ever leaving the organization owner-less
 * (the permission rules (README, Organizations) "the sole owner cannot leave", docs/security.md/I6). Two owners demoting or removing each
 * other at once would each see the other still there; a count before the write cannot see the
 * concurrent write, and FerretDB v1 has no transactions. So: write first, count the owners left,
 * and if none are, put the role back and refuse. Concurrent callers may all refuse, never all pass.
 */
export async function dropCreatorRole(
  auth: AuthContext,
  member: MemberDoc,
  newRole: string,
): Promise<boolean> {
  const creatorRole = auth.options.organization.creatorRole;
  if (!holdsRole(member.role, creatorRole)) {
    await store.setMemberRole(auth.collections, member, newRole);
    return true;
  }
  if ((await store.countMembersWithRole(auth.collections, member.organizationId, creatorRole)) <= 1)
    return false;
  await store.setMemberRole(auth.collections, member, newRole);
  if ((await store.countMembersWithRole(auth.collections, member.organizationId, creatorRole)) > 0)
    return true;
  await store.setMemberRole(auth.collections, member, member.role);
  return false;
}

/**
 * Removes a member (leave or remove-member): owners first lose the creator role under the sole-owner
 * guard; then the organization stops being active on their sessions and their team memberships go,
 * and the member row last. A crash anywhere leaves a member who merely has no active
 * organization or teams any more — the same request again finishes it — never sessions of a
 * non-member pointing at the organization. False when the sole-owner rule refused; null when already
 * gone.
 */
export async function removeMembership(auth: AuthContext, member: MemberDoc): Promise<boolean | null> {
  const creatorRole = auth.options.organization.creatorRole;
  if (holdsRole(member.role, creatorRole)) {
    const remaining = member.role
      .split(",")
      .map((role) => role.trim())
      .filter((role) => role !== creatorRole && role.length > 0);
    if (!(await dropCreatorRole(auth, member, remaining.join(",") || "member"))) return false;
  }
  await clearActiveOrganizationOfSessions(auth, member.organizationId.toHexString(), member.userId);
  await deleteUserTeamMemberships(auth, member.organizationId, member.userId);
  if (!(await store.deleteMemberById(auth.collections, member))) return null;
  return true;
}

/**
 * Members with their users' public fields: one `$in` read for the whole page (no $lookup on
 * FerretDB). A member whose user is gone is left out rather than failing the listing (Better Auth
 * complaint #2: "User not found for member").
 */
export async function pairWithUsers(
  auth: AuthContext,
  members: readonly MemberDoc[],
): Promise<MemberAndUser[]> {
  const users = await findMemberUsers(
    auth.collections,
    members.map((member) => member.userId),
  );
  const byId = new Map(users.map((user) => [user._id.toHexString(), user]));
  const listed: MemberAndUser[] = [];
  for (const member of members) {
    const user = byId.get(member.userId.toHexString());
    if (user) listed.push({ member, user });
  }
  return listed;
}

const USER_ID_FIELD = bsonFieldNames(["userId"]);
const ID_FIELD = bsonFieldNames(["_id"]);

/**
 * pairWithUsers for a page left as BSON (store.listMembersRawPage): the same users read, the same
 * pairs in page order, members without a user left out. `userIds[i]` is member i's user.
 */
export async function pairMembersRaw(
  auth: AuthContext,
  members: RawPage<MemberDoc>,
  userIds: readonly ObjectId[],
): Promise<RawMemberPairs> {
  if (userIds.length === 0) return { members, users: RawPage.empty(), pairs: [] };
  const users = await findMemberUsersRaw(auth.collections, userIds);
  const byId = new Map<string, number>();
  const id = new BsonFields(ID_FIELD);
  for (let index = 0; index < users.length; index++) {
    id.read(users.bytes, users.starts[index] as number);
    // Only ObjectId `_id`s match the `$in` of ObjectIds.
    if (id.type(0) === TYPE_OBJECT_ID) byId.set(users.bytes.toString("hex", id.at(0), id.at(0) + 12), index);
  }
  const pairs: number[] = [];
  for (let index = 0; index < userIds.length; index++) {
    const user = byId.get((userIds[index] as ObjectId).toHexString());
    if (user !== undefined) pairs.push(index, user);
  }
  return { members, users, pairs };
}

/** Each member's user id, in page order (as MemberDoc.userId). */
export function userIdsOf(members: RawPage<MemberDoc>): ObjectId[] {
  const field = new BsonFields(USER_ID_FIELD);
  const ids: ObjectId[] = [];
  for (let index = 0; index < members.length; index++) {
    field.read(members.bytes, members.starts[index] as number);
    const at = field.at(0);
    ids.push(
      field.type(0) === TYPE_OBJECT_ID
        ? new ObjectId(members.bytes.subarray(at, at + 12))
        : members.decode(index).userId,
    );
  }
  return ids;
}

/** the target is found by member id, or by email when the value contains an at sign. */
export async function findMemberByIdOrEmail(
  auth: AuthContext,
  organizationId: ObjectId,
  memberIdOrEmail: string,
): Promise<MemberDoc | null> {
  if (memberIdOrEmail.includes("@")) {
    const email = emailField.safeParse(memberIdOrEmail);
    const user = email.success ? await findUserByEmail(auth.collections, email.data) : null;
    return user ? store.findMember(auth.collections, organizationId, user._id) : null;
  }
  const memberId = parseId(memberIdOrEmail);
  return memberId ? store.findMemberById(auth.collections, organizationId, memberId) : null;
}

/**
 * The user with this address (null when there is none) and whether they are already a member; the
 * user is handed on so an invitation mail goes in their language without another read.
 */
export async function findAddressMembership(
  auth: AuthContext,
  organizationId: ObjectId,
  email: string,
): Promise<{ user: UserDoc | null; isMember: boolean }> {
  const user = await findUserByEmail(auth.collections, email);
  const isMember =
    user !== null && (await store.findMember(auth.collections, organizationId, user._id)) !== null;
  return { user, isMember };
}

/** The user's member row in the organization; null when they are not a member. */
export function findMember(
  auth: AuthContext,
  organizationId: ObjectId,
  userId: ObjectId,
): Promise<MemberDoc | null> {
  return store.findMember(auth.collections, organizationId, userId);
}

/** A member by id (a string that is not one is not found), only in that organization. */
export async function findMemberById(
  auth: AuthContext,
  organizationId: ObjectId,
  memberId: string,
): Promise<MemberDoc | null> {
  const id = parseId(memberId);
  return id ? store.findMemberById(auth.collections, organizationId, id) : null;
}

/** A user by id (a string that is not one is not found); null when there is none. */
export async function findUser(auth: AuthContext, userId: string | ObjectId): Promise<UserDoc | null> {
  const id = typeof userId === "string" ? parseId(userId) : userId;
  return id ? findUserById(auth.collections, id) : null;
}

/** listMembersPage, its documents left as BSON (db/raw-page.ts). */
export function listMembersRawPage(
  auth: AuthContext,
  organizationId: ObjectId,
  page: store.MemberPage,
): Promise<RawPage<MemberDoc>> {
  return store.listMembersRawPage(auth.collections, organizationId, page);
}

/** One page of members (store.listMembersPage: never more). */
export function listMembersPage(
  auth: AuthContext,
  organizationId: ObjectId,
  page: store.MemberPage,
): Promise<MemberDoc[]> {
  return store.listMembersPage(auth.collections, organizationId, page);
}

export function countMembers(auth: AuthContext, organizationId: ObjectId): Promise<number> {
  return store.countMembers(auth.collections, organizationId);
}

export function countUserMemberships(auth: AuthContext, userId: ObjectId): Promise<number> {
  return store.countUserMemberships(auth.collections, userId);
}

/** A user's memberships, oldest first, one page. */
export function listUserMemberships(
  auth: AuthContext,
  userId: ObjectId,
  limit: number,
  offset = 0,
): Promise<MemberDoc[]> {
  return store.listUserMemberships(auth.collections, userId, limit, offset);
}

/** Every membership of a user (deleting a user must see them all, not one page). */
export function findUserMemberships(auth: AuthContext, userId: ObjectId): Promise<MemberDoc[]> {
  return store.findUserMemberships(auth.collections, userId);
}

/** Of `organizationIds`, those with a member other than `userId`. */
export function findOrganizationsWithOtherMembers(
  auth: AuthContext,
  organizationIds: readonly ObjectId[],
  userId: ObjectId,
): Promise<ObjectId[]> {
  return store.findOrganizationsWithOtherMembers(auth.collections, organizationIds, userId);
}

/** Of `organizationIds`, those where a member other than `userId` holds `role`. */
export function findOrganizationsWithOtherRoleHolder(
  auth: AuthContext,
  organizationIds: readonly ObjectId[],
  userId: ObjectId,
  role: string,
): Promise<ObjectId[]> {
  return store.findOrganizationsWithOtherRoleHolder(auth.collections, organizationIds, userId, role);
}

/** A user's member rows that do not hold `role` (store.deleteUserMembersWithoutRole says why). */
export function deleteUserMembersWithoutRole(
  auth: AuthContext,
  userId: ObjectId,
  role: string,
): Promise<number> {
  return store.deleteUserMembersWithoutRole(auth.collections, userId, role);
}

/** Every member row of the user (store.deleteUserMembers); how many went. */
export function deleteUserMembers(auth: AuthContext, userId: ObjectId): Promise<number> {
  return store.deleteUserMembers(auth.collections, userId);
}

/** Writes a member's roles as they are (the sole-owner guard is dropCreatorRole's). */
export function setMemberRole(auth: AuthContext, member: store.MemberRef, role: string): Promise<void> {
  return store.setMemberRole(auth.collections, member, role);
}

/** The creator's row, before the organization's (store.insertCreatorMember: nothing to bump yet). */
export function insertCreatorMember(auth: AuthContext, doc: MemberDoc): Promise<void> {
  return store.insertCreatorMember(auth.collections, doc);
}

/** Takes a member row back; true for the one caller whose delete removed it. */
export function deleteMember(
  auth: AuthContext,
  member: store.MemberRef & Pick<MemberDoc, "role">,
): Promise<boolean> {
  return store.deleteMemberById(auth.collections, member);
}

export function deleteOrganizationMembers(auth: AuthContext, organizationId: ObjectId): Promise<void> {
  return store.deleteOrganizationMembers(auth.collections, organizationId);
}

/** A removed team is nobody's team any more (member.teamId, docs/decisions/). */
export function clearMembersTeam(
  auth: AuthContext,
  organizationId: ObjectId,
  teamId: ObjectId,
): Promise<void> {
  return store.clearMembersTeam(auth.collections, organizationId, teamId);
}

/** Every member of the organization, oldest first (an operator's listing). */
export function listAllMembers(auth: AuthContext, organizationId: ObjectId): Promise<MemberDoc[]> {
  return store.listAllMembers(auth.collections, organizationId);
}

/**
 * Every member of the organization, oldest first, each with its user's public fields — null for a
 * member whose user is gone (an operator sees the row anyway).
 */
export async function listAllMembersWithUsers(
  auth: AuthContext,
  organizationId: ObjectId,
): Promise<{ member: MemberDoc; user: Pick<UserDoc, "_id" | "name" | "email" | "image"> | null }[]> {
  const members = await store.listAllMembers(auth.collections, organizationId);
  const users = await findMemberUsers(
    auth.collections,
    members.map((member) => member.userId),
  );
  const byId = new Map(users.map((user) => [user._id.toHexString(), user]));
  return members.map((member) => ({ member, user: byId.get(member.userId.toHexString()) ?? null }));
}
