import type { AuthContext } from "../../../context.ts";
import type {
  InvitationDoc,
  MemberDoc,
  OrganizationDoc,
  SessionDoc,
  TeamDoc,
} from "../../../db/documents.ts";
import { type ObjectId, parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import type { ErrorCode } from "../../../errors/catalogue.ts";
import { ORGANIZATION_HEADER } from "../../../http/organization-header.ts";
import type { SessionWithUser } from "../../session/index.ts";
import { findInviterStillAllowed } from "../invitations/service.ts";
import { hasPermission } from "../members/rules.ts";
import { findMember, roleTableOf } from "../members/service.ts";
import {
  findOrganization,
  findOrganizationBySlug,
  writeActiveOrganization,
} from "../organizations/service.ts";
import { findOrganizationTeams, findTeam } from "../teams/service.ts";

/**
 * The checks every organization endpoint starts with, and the one place where their "not found"
 * (null from the services) and "not allowed" become catalogue errors. Services below never throw a
 * catalogue error: they answer null or a refusal value (errors/refusal.ts).
 */

/** The signed-in caller; endpoints with auth "session" always have one. */
export function requireCaller(session: SessionWithUser | null): SessionWithUser {
  if (!session) throw new AuthError("UNAUTHORIZED");
  return session;
}

/** docs/decisions/ "Organization ID is required" where the body names the organization explicitly. */
export function requireOrganizationIdField(value: string | undefined): string {
  if (value === undefined || value.length === 0) throw new AuthError("ORGANIZATION_ID_REQUIRED");
  return value;
}

/**
 * The organization a call is about: the given id, else the session's active organization (endpoints
 * hand in the request's, resolveRequestOrganizationId). An id that
 * is not 24 hex answers like an organization the caller is not a member of (one body for "does not
 * exist" and "not yours", docs/security.md); no id and no active organization fails closed.
 */
export function resolveOrganizationId(
  session: Pick<SessionDoc, "activeOrganizationId"> | null,
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

/** What the guards read of a request: the instance, the caller and the request's headers. */
export interface OrganizationRequest {
  auth: AuthContext;
  session: SessionWithUser | null;
  headers: Headers;
}

/** The active organization and team a request works in (readRequestActive). */
export interface RequestActive {
  caller: SessionWithUser;
  organizationId: string | null;
  teamId: string | null;
}

/**
 * The request's active organization: the one its `x-tessera-organization` header names, else the
 * session's (docs/decisions.md "Active organization per request"). The header is checked on every
 * call: a malformed id, an organization that does not exist and one the caller is not a member of all
 * answer NOT_A_MEMBER_OF_ORGANIZATION (docs/security.md) — never a fallback to the session's. The
 * session's active team goes with the session's organization only. Nothing is written to the session.
 */
export async function readRequestActive(ctx: OrganizationRequest): Promise<RequestActive> {
  const caller = requireCaller(ctx.session);
  const named = ctx.headers.get(ORGANIZATION_HEADER);
  if (named === null) {
    const { activeOrganizationId, activeTeamId } = caller.session;
    return { caller, organizationId: activeOrganizationId ?? null, teamId: activeTeamId ?? null };
  }
  const id = parseId(named.trim());
  if (!id || !(await findMember(ctx.auth, id, caller.user._id)))
    throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
  const organizationId = id.toHexString();
  const sameAsSession = caller.session.activeOrganizationId === organizationId;
  return { caller, organizationId, teamId: sameAsSession ? (caller.session.activeTeamId ?? null) : null };
}

/**
 * resolveOrganizationId for a request: the given id, else the request's active organization (the
 * header's or the session's, readRequestActive — whose header check runs either way). Without a
 * caller (add-member, server-only) only a given id names one.
 */
export async function resolveRequestOrganizationId(
  ctx: OrganizationRequest,
  given: string | null | undefined,
): Promise<ObjectId> {
  if (!ctx.session) return resolveOrganizationId(null, given);
  const active = await readRequestActive(ctx);
  return resolveOrganizationId({ activeOrganizationId: active.organizationId }, given);
}

/** By id, else by slug, else the request's active one; a slug that names nothing answers like a non-member. */
export async function resolveOrganizationRef(
  ctx: OrganizationRequest,
  ref: { organizationId?: string | undefined; organizationSlug?: string | undefined },
  readActive?: RequestActive,
): Promise<{ id: ObjectId; organization: OrganizationDoc | null }> {
  const active = readActive ?? (await readRequestActive(ctx));
  if (ref.organizationId === undefined && ref.organizationSlug !== undefined) {
    const organization = await findOrganizationBySlug(ctx.auth, ref.organizationSlug);
    if (!organization) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
    return { id: organization._id, organization };
  }
  const id = resolveOrganizationId({ activeOrganizationId: active.organizationId }, ref.organizationId);
  return { id, organization: null };
}

export async function requireOrganization(auth: AuthContext, id: ObjectId): Promise<OrganizationDoc> {
  const organization = await findOrganization(auth, id);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  return organization;
}

/** The caller's member row, read from the database every time. */
export async function requireMembership(
  auth: AuthContext,
  organizationId: ObjectId,
  userId: ObjectId,
): Promise<MemberDoc> {
  const member = await findMember(auth, organizationId, userId);
  if (!member) throw new AuthError("NOT_A_MEMBER_OF_ORGANIZATION");
  return member;
}

/**
 * What any member may read of their organization (the named one, else the active one): `read`
 * answers null when the organization is gone, which answers ORGANIZATION_NOT_FOUND.
 */
export async function readAsMember<T>(
  ctx: OrganizationRequest,
  organizationIdInput: string | undefined,
  read: (organizationId: ObjectId, userId: ObjectId) => Promise<T | null>,
): Promise<T> {
  const { auth } = ctx;
  const caller = requireCaller(ctx.session);
  const organizationId = await resolveRequestOrganizationId(ctx, organizationIdInput);
  await requireMembership(auth, organizationId, caller.user._id);
  const found = await read(organizationId, caller.user._id);
  if (!found) throw new AuthError("ORGANIZATION_NOT_FOUND");
  return found;
}

export function assertPermission(
  auth: AuthContext,
  member: MemberDoc,
  request: Readonly<Record<string, readonly string[]>>,
  refusal: ErrorCode,
): void {
  if (!hasPermission(member.role, request, roleTableOf(auth))) throw new AuthError(refusal);
}

/** Team endpoints exist only with teams enabled. */
export function assertTeamsEnabled(auth: AuthContext): void {
  if (!auth.options.organization.teams.enabled) throw new AuthError("NOT_FOUND");
}

/**
 * Teams named by id that must all belong to the organization (a team id of another organization
 * is "Team not found", docs/security.md).
 */
export async function requireOrganizationTeams(
  auth: AuthContext,
  organizationId: ObjectId,
  teamIds: readonly string[],
): Promise<TeamDoc[]> {
  if (teamIds.length === 0) return [];
  // With teams off there are no teams to name (leftover rows from when they were on included).
  if (!auth.options.organization.teams.enabled) throw new AuthError("TEAM_NOT_FOUND");
  const ids = teamIds.map((id) => parseId(id));
  if (ids.some((id) => id === null)) throw new AuthError("TEAM_NOT_FOUND");
  const teams = await findOrganizationTeams(auth, organizationId, ids as ObjectId[]);
  if (teams.length !== new Set(teamIds).size) throw new AuthError("TEAM_NOT_FOUND");
  return teams;
}

/** A team by id, only when it belongs to the expected organization (when one is given). */
export async function requireTeam(
  auth: AuthContext,
  teamId: string,
  organizationId?: ObjectId,
): Promise<TeamDoc> {
  const id = parseId(teamId);
  const team = id ? await findTeam(auth, id) : null;
  if (!team || (organizationId && !team.organizationId.equals(organizationId)))
    throw new AuthError("TEAM_NOT_FOUND");
  return team;
}

/** invitations/service.ts findInviterStillAllowed: the inviter's row, or INVITER_NO_LONGER_MEMBER. */
export async function requireInviterStillAllowed(
  auth: AuthContext,
  invitation: InvitationDoc,
): Promise<MemberDoc> {
  const inviter = await findInviterStillAllowed(auth, invitation);
  if (!inviter) throw new AuthError("INVITER_NO_LONGER_MEMBER");
  return inviter;
}

/** writeActiveOrganization where the switch is the request itself: a hook's refusal is the answer. */
export async function writeActiveOrSay(...args: Parameters<typeof writeActiveOrganization>): Promise<void> {
  if (!(await writeActiveOrganization(...args))) throw new AuthError("SESSION_UPDATE_REFUSED");
}
