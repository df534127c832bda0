import { ObjectId } from "mongodb";
import type { AuthContext } from "../../../context.ts";
import { isDuplicateKeyError } from "../../../db/connect.ts";
import type { MemberDoc, OrganizationDoc, UserDoc } from "../../../db/documents.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { toMailUser } from "../../mail-dispatch.ts";
import { deleteOrganizationInvitations } from "../invitations/store.ts";
import { clearActiveOrganizationOfSessions } from "../members/service.ts";
import {
  countUserMemberships,
  deleteMemberById,
  deleteOrganizationById,
  deleteOrganizationMembers,
  findOrganizationsByIds,
  insertMember,
  insertOrganization,
  listUserMemberships,
} from "../members/store.ts";
import { deleteOrganizationTeamMembers, deleteOrganizationTeams } from "../teams/store.ts";
import { insertWithinLimit } from "./bounded-insert.ts";

/**
 * SPEC §6: creation may be disabled or decided by a function. The per-user cap is applied where the
 * creator's row is inserted (createOrganizationWithOwner), as only a count after it is exact.
 */
export async function assertMayCreateOrganization(auth: AuthContext, user: UserDoc): Promise<void> {
  const allow = auth.options.organization.allowUserToCreateOrganization;
  const allowed = typeof allow === "function" ? await allow(toMailUser(user)) : allow;
  if (allowed !== true) throw new AuthError("ORGANIZATION_CREATION_NOT_ALLOWED");
}

/** A creator's member row younger than this may still be waiting for its organization's insert. */
const IN_FLIGHT_SECONDS = 60;
/** Rows read when the plain count reaches the limit (only then are orphans told apart). */
const MEMBERSHIP_READ_CAP = 1000;

/**
 * The memberships organizationLimit counts. The plain count (one indexed command) decides when it
 * is under the limit. At or over it, the rows are read: a creator row whose organization does not
 * exist and that is older than IN_FLIGHT_SECONDS was orphaned by a crash between the two inserts of
 * createOrganizationWithOwner and does not count; a younger one is a create still in flight and
 * counts, or parallel creates would not see each other.
 */
async function countLimitedMemberships(auth: AuthContext, userId: ObjectId): Promise<number> {
  const { collections } = auth;
  const count = await countUserMemberships(collections, userId);
  const limit = auth.options.organization.organizationLimit;
  if (limit === undefined || count < limit) return count;
  const rows = await listUserMemberships(collections, userId, MEMBERSHIP_READ_CAP);
  const existing = await findOrganizationsByIds(
    collections,
    rows.map((row) => row.organizationId),
  );
  const ids = new Set(existing.map((organization) => organization._id.toHexString()));
  const inFlightSince = auth.now().getTime() - IN_FLIGHT_SECONDS * 1000;
  const counted = rows.filter(
    (row) => ids.has(row.organizationId.toHexString()) || row.createdAt.getTime() > inFlightSince,
  );
  return counted.length + Math.max(0, count - rows.length);
}

/**
 * The creator's row within organizationLimit (bounded-insert.ts: parallel creates cannot pass it),
 * before the organization's insert, so a refusal leaves nothing behind.
 */
async function insertCreatorWithinLimit(auth: AuthContext, member: MemberDoc): Promise<void> {
  const { collections } = auth;
  const limit = auth.options.organization.organizationLimit;
  if (limit === undefined) return insertMember(collections, member);
  const inserted = await insertWithinLimit<MemberDoc>(
    {
      count: () => countLimitedMemberships(auth, member.userId),
      insert: async () => {
        await insertMember(collections, member);
        return member;
      },
      undo: async () => {
        await deleteMemberById(collections, member._id);
      },
    },
    limit,
  );
  if (!inserted) throw new AuthError("ORGANIZATION_LIMIT_REACHED");
}

export interface NewOrganization {
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
}

/**
 * Creates the organization and its creator's membership (seat 0), within organizationLimit when
 * set. The creator's member row is written first: a crash in between leaves a member of an
 * organization that does not exist (ignored by every read, and by the limit once it is old) rather
 * than an organization without an owner. The slug's unique index decides concurrent creates with
 * one slug; the losers take their member row back.
 */
export async function createOrganizationWithOwner(
  auth: AuthContext,
  userId: ObjectId,
  input: NewOrganization,
): Promise<{ organization: OrganizationDoc; member: MemberDoc }> {
  const now = auth.now();
  const organization: OrganizationDoc = {
    _id: new ObjectId(),
    name: input.name,
    slug: input.slug,
    logo: input.logo,
    metadata: input.metadata === null ? null : JSON.stringify(input.metadata),
    createdAt: now,
  };
  const member: MemberDoc = {
    _id: new ObjectId(),
    organizationId: organization._id,
    userId,
    role: auth.options.organization.creatorRole,
    createdAt: now,
    teamId: null,
    seat: 0,
  };
  await insertCreatorWithinLimit(auth, member);
  try {
    await insertOrganization(auth.collections, organization);
  } catch (error) {
    await deleteMemberById(auth.collections, member._id);
    if (isDuplicateKeyError(error)) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
    throw error;
  }
  return { organization, member };
}

/**
 * DECISIONS.md: deleting removes members, invitations, teams and team memberships, and clears the
 * organization as active on every session. The organization row goes first (its delete count picks
 * the one winner of concurrent deletes), so a crash midway leaves only rows that every read ignores.
 */
export async function deleteOrganizationCascade(auth: AuthContext, id: ObjectId): Promise<boolean> {
  const { collections } = auth;
  if (!(await deleteOrganizationById(collections, id))) return false;
  await deleteOrganizationMembers(collections, id);
  await deleteOrganizationInvitations(collections, id);
  await deleteOrganizationTeamMembers(collections, id);
  await deleteOrganizationTeams(collections, id);
  await clearActiveOrganizationOfSessions(auth, id.toHexString());
  return true;
}
