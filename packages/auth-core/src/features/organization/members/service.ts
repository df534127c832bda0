import { ObjectId } from "mongodb";
import type { ResolvedOptions } from "../../../config/options.ts";
import type { AuthContext } from "../../../context.ts";
import type { MemberDoc, OrganizationDoc, SessionDoc } from "../../../db/documents.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import type { ErrorCode } from "../../../errors/catalogue.ts";
import type { CookieJar } from "../../../http/cookie-jar.ts";
import { isApiKeySession } from "../../api-key/session-bridge.ts";
import { applyAfterHook, applyBeforeHook } from "../../hooks.ts";
import { setCookieCache } from "../../session/service.ts";
import {
  type ActiveField,
  clearActiveOrganization,
  clearActiveTeam,
  clearSessionActive,
  listSessionsWithActive,
  setSessionActiveOrganization,
  setSessionActiveOrganizationReturning,
} from "../../session/store.ts";
import type { SessionWithUser } from "../../session/types.ts";
import { deleteUserTeamMemberships } from "../teams/store.ts";
import { buildRoleTable, hasPermission, holdsRole, type RoleTable } from "./rules.ts";
import { claimSeat, type SeatResult } from "./seats.ts";
import {
  countMembers,
  countMembersWithRole,
  deleteMemberById,
  findMember,
  findOrganizationById,
  findOrganizationBySlug,
  insertMember,
  listMemberSeats,
  setMemberRole,
} from "./store.ts";

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

/** The signed-in caller; endpoints with auth "session" always have one. */
export function requireCaller(session: SessionWithUser | null): SessionWithUser {
  if (!session) throw new AuthError("UNAUTHORIZED");
  return session;
}

/**
 * The organization a call is about: the given id, else the session's active organization. An id that
 * is not 24 hex answers like an organization the caller is not a member of (one body for "does not
 * exist" and "not yours", security-matrix I9); no id and no active organization fails closed (I20).
 */
export function resolveOrganizationId(
  session: SessionDoc | null,
  given: string | null | undefined,
): ObjectId {
  if (given !== undefined && given !== null) {
    const id = parseId(given);
    if (!id) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
    return id;
  }
  const active = parseId(session?.activeOrganizationId);
  if (!active) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  return active;
}

/** By id, else by slug, else the active one; a slug that names nothing answers like a non-member. */
export async function resolveOrganizationRef(
  auth: AuthContext,
  session: SessionDoc | null,
  ref: { organizationId?: string | undefined; organizationSlug?: string | undefined },
): Promise<{ id: ObjectId; organization: OrganizationDoc | null }> {
  if (ref.organizationId === undefined && ref.organizationSlug !== undefined) {
    const organization = await findOrganizationBySlug(auth.collections, ref.organizationSlug);
    if (!organization) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
    return { id: organization._id, organization };
  }
  return { id: resolveOrganizationId(session, ref.organizationId), organization: null };
}

/** SPEC §6 "Non-members are refused": the caller's member row, read from the database every time. */
export async function requireMembership(
  auth: AuthContext,
  organizationId: ObjectId,
  userId: ObjectId,
): Promise<MemberDoc> {
  const member = await findMember(auth.collections, organizationId, userId);
  if (!member) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
  return member;
}

export function assertPermission(
  auth: AuthContext,
  member: MemberDoc,
  request: Readonly<Record<string, readonly string[]>>,
  refusal: ErrorCode,
): void {
  if (!hasPermission(member.role, request, roleTableOf(auth))) throw new AuthError(refusal);
}

export async function requireOrganization(auth: AuthContext, id: ObjectId): Promise<OrganizationDoc> {
  const organization = await findOrganizationById(auth.collections, id);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  return organization;
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
      count: () => countMembers(collections, input.organizationId),
      takenSeats: () =>
        listMemberSeats(collections, input.organizationId, auth.options.organization.membershipLimit),
      isAlreadyIn: async () => (await findMember(collections, input.organizationId, input.userId)) !== null,
      insert: async (seat) => {
        const doc: MemberDoc = { _id: new ObjectId(), ...input, createdAt: auth.now(), seat };
        await insertMember(collections, doc);
        return doc;
      },
      remove: async (doc) => {
        await deleteMemberById(collections, doc._id);
      },
    },
    auth.options.organization.membershipLimit,
  );
}

/**
 * Writes the session's active organization and team through the session update hooks (review s9
 * finding 8), and re-issues the cookie cache so get-session shows the change at once (a stale cache
 * would keep answering the old one for its whole max age). A `before` hook may change the two fields
 * (nothing else: not the user, not the token) or refuse: SESSION_UPDATE_REFUSED, nothing written.
 * The `after` hook sees the stored session, and runs only when the session still existed.
 */
/**
 * writeActiveOrganization as the side effect of another write (create, accept-invitation): a session
 * update hook refusing the switch leaves the session as it was, and the organization or membership —
 * already stored — stands; the caller is not told their create or accept failed when it did not.
 */
export async function switchActiveOrganizationUnlessRefused(
  ...args: Parameters<typeof writeActiveOrganization>
): Promise<void> {
  await writeActiveOrganization(...args).catch((error: unknown) => {
    if (!(error instanceof AuthError && error.code === "SESSION_UPDATE_REFUSED")) throw error;
  });
}

export async function writeActiveOrganization(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
  organizationId: string | null,
  teamId: string | null,
): Promise<void> {
  // An API-key caller has no session row (features/api-key/session-bridge.ts): nothing to make active.
  if (isApiKeySession(caller)) return;
  const hooks = auth.options.hooks?.session?.update;
  const change = await applyBeforeHook<Partial<SessionDoc>>(hooks, {
    activeOrganizationId: organizationId,
    activeTeamId: teamId,
  });
  if (!change) throw new AuthError("SESSION_UPDATE_REFUSED");
  const session: SessionDoc = {
    ...caller.session,
    activeOrganizationId: change.activeOrganizationId ?? null,
    activeTeamId: change.activeTeamId ?? null,
  };
  const write = [
    auth.collections,
    session._id,
    session.activeOrganizationId,
    session.activeTeamId ?? null,
  ] as const;
  // The after hook sees the stored session (a cached caller's copy may be behind): the write returns it.
  let stored: SessionDoc | null = null;
  if (hooks?.after) stored = await setSessionActiveOrganizationReturning(...write);
  else await setSessionActiveOrganization(...write);
  setCookieCache(auth, jar, session, caller.user);
  if (stored) await applyAfterHook(hooks, stored);
}

/**
 * Takes the creator role away from a member without ever leaving the organization owner-less
 * (SPEC §6 "the sole owner cannot leave", security-matrix I5/I6). Two owners demoting or removing each
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
    await setMemberRole(auth.collections, member._id, newRole);
    return true;
  }
  if ((await countMembersWithRole(auth.collections, member.organizationId, creatorRole)) <= 1) return false;
  await setMemberRole(auth.collections, member._id, newRole);
  if ((await countMembersWithRole(auth.collections, member.organizationId, creatorRole)) > 0) return true;
  await setMemberRole(auth.collections, member._id, member.role);
  return false;
}

/**
 * Removes a member (leave or remove-member): owners first lose the creator role under the sole-owner
 * guard, then the row goes, then their team memberships, then the organization stops being active
 * on their sessions (SPEC §4). False when the sole-owner rule refused; null when already gone.
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
  if (!(await deleteMemberById(auth.collections, member._id))) return null;
  await deleteUserTeamMemberships(auth.collections, member.organizationId, member.userId);
  await clearActiveOrganizationOfSessions(auth, member.organizationId.toHexString(), member.userId);
  return true;
}

/**
 * SPEC §4 cascades: an organization left, removed or deleted stops being active on sessions (on one
 * user's when `userId` is given); a team likewise. A required cascade, so no `before` hook is asked
 * (a refusal would leave a session pointing at what is gone); with a session update `after` hook,
 * each session is cleared by its own write and reported once that write found it. The closing bulk
 * write catches a session that made it active after the list was read.
 */
export async function clearActiveOrganizationOfSessions(
  auth: AuthContext,
  organizationId: string,
  userId?: ObjectId,
): Promise<void> {
  await reportClearedSessions(auth, "activeOrganizationId", organizationId, userId);
  await clearActiveOrganization(auth.collections, organizationId, userId);
}

/** The team form of clearActiveOrganizationOfSessions (a removed team, or a member removed from it). */
export async function clearActiveTeamOfSessions(
  auth: AuthContext,
  teamId: string,
  userId?: ObjectId,
): Promise<void> {
  await reportClearedSessions(auth, "activeTeamId", teamId, userId);
  await clearActiveTeam(auth.collections, teamId, userId);
}

async function reportClearedSessions(
  auth: AuthContext,
  field: ActiveField,
  value: string,
  userId: ObjectId | undefined,
): Promise<void> {
  const after = auth.options.hooks?.session?.update?.after;
  if (!after) return;
  for await (const session of listSessionsWithActive(auth.collections, field, value, userId)) {
    if (!(await clearSessionActive(auth.collections, session._id, field, value))) continue;
    const cleared =
      field === "activeOrganizationId"
        ? { activeOrganizationId: null, activeTeamId: null }
        : { activeTeamId: null };
    await after({ ...session, ...cleared });
  }
}

/**
 * After the database cleared an organization as active on the caller's sessions (leave, remove self,
 * delete): re-issues the caller's cookie cache without it, so get-session agrees at once.
 */
export function forgetActiveOrganization(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
  organizationId: string,
): void {
  if (caller.session.activeOrganizationId !== organizationId) return;
  setCookieCache(
    auth,
    jar,
    { ...caller.session, activeOrganizationId: null, activeTeamId: null },
    caller.user,
  );
}
