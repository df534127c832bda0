import type { AuthContext } from "../../context.ts";
import type { AfterCollections } from "../../db/collections.ts";
import type { UserDoc } from "../../db/documents.ts";
import { ObjectId, parseId } from "../../db/ids.ts";
import type { SessionWithUser } from "../session/index.ts";
import { findUserById } from "../users/index.ts";
import { claimOneTimeToken } from "../verification/index.ts";
import {
  DEFAULT_ADMIN_ROLES,
  type PermissionRequest,
  parseRoleList,
  type RoleSet,
  rolesGrant,
} from "./access.ts";
import type { ListUsersQuery, UserPage } from "./list-users-query.ts";
import { operatorOf } from "./operator.ts";
import type { AuditAction } from "./rules.ts";
import * as stored from "./store.ts";
import { insertAuditEvent } from "./store.ts";

export function adminRoles(auth: AuthContext): RoleSet {
  return auth.options.admin.roles ?? DEFAULT_ADMIN_ROLES;
}

/** listed admin user ids bypass the checks; otherwise any of the user's roles must grant it. */
export function hasAdminPermission(auth: AuthContext, user: UserDoc, request: PermissionRequest): boolean {
  const admin = auth.options.admin;
  if (isListedAdmin(auth, user)) return true;
  return rolesGrant(adminRoles(auth), parseRoleList(user.role, admin.defaultRole), request);
}

/**
 * An "admin" for impersonation and management protection: a listed admin id, a holder of an
 * `adminRoles` role, or a holder of any role granting any admin-area action — a custom "support"
 * role is protected as well, whatever it is called.
 */
export function isAdminUser(auth: AuthContext, user: UserDoc): boolean {
  const admin = auth.options.admin;
  if (isListedAdmin(auth, user)) return true;
  const names = parseRoleList(user.role, admin.defaultRole);
  if (names.some((name) => admin.adminRoles.includes(name))) return true;
  const roles = adminRoles(auth);
  return names.some(
    (name) => Object.hasOwn(roles, name) && Object.values(roles[name]!).some((actions) => actions.length > 0),
  );
}

/** A user named in `admin.adminUserIds`: above every role (docs/security.md "Which administrator may act on which user"). */
export function isListedAdmin(auth: AuthContext, user: Pick<UserDoc, "_id">): boolean {
  return auth.options.admin.adminUserIds.includes(user._id.toHexString());
}

/**
 * The may-manage rule (docs/security.md "Which administrator may act on which user"): acting on
 * another admin needs `user: manage-admins` (the built-in admin role lacks it, access.ts), and a
 * listed admin id can only be acted on by another listed admin id. Acting on oneself stays as each
 * endpoint allows. Endpoints reach it only through requireUserToManage (endpoints/guards.ts), which
 * answers a refusal with 403 and the permission message, like any missing permission.
 */
export function mayManageUser(auth: AuthContext, caller: SessionWithUser, target: UserDoc): boolean {
  if (target._id.equals(caller.user._id) || operatorOf(caller) !== null) return true;
  if (isListedAdmin(auth, target)) return isListedAdmin(auth, caller.user);
  return !isAdminUser(auth, target) || hasAdminPermission(auth, caller.user, { user: ["manage-admins"] });
}

/**
 * Granting a role (set-role, create-user) needs the caller to hold every action
 * the role grants (through any of their roles; listed admin ids bypass), so nobody hands out — to
 * anyone, themselves included — more than they have. `stored`: the comma-separated role names.
 */
export function mayGrantRoles(auth: AuthContext, caller: SessionWithUser, stored: string): boolean {
  if (operatorOf(caller) !== null) return true;
  const roles = adminRoles(auth);
  for (const name of stored.split(",")) {
    const role = Object.hasOwn(roles, name) ? roles[name]! : {};
    for (const [resource, actions] of Object.entries(role)) {
      for (const action of actions) {
        if (!hasAdminPermission(auth, caller.user, { [resource]: [action] })) return false;
      }
    }
  }
  return true;
}

/**
 * The user an admin request names: null for an unknown or malformed id (never sent to the
 * database). Endpoints use it through requireUserToRead / requireUserToManage (endpoints/guards.ts).
 */
export async function findNamedUser(auth: AuthContext, userId: string | ObjectId): Promise<UserDoc | null> {
  const id = typeof userId === "string" ? parseId(userId) : userId;
  return id ? await findUserById(auth.collections, id) : null;
}

/**
 * Concurrent removals of one user all get through the (idempotent) deletion; this unique marker
 * lets exactly one of them answer success and write the audit event. Claimed after the deletion,
 * so a crash in between can never block a retry. It outlives nothing that matters: ids are never reused.
 */
export function claimUserRemoval(auth: AuthContext, userId: ObjectId): Promise<boolean> {
  const now = auth.now();
  const expiresAt = new Date(now.getTime() + 86400 * 1000);
  return claimOneTimeToken(auth.collections, `admin-remove-user:${userId.toHexString()}`, expiresAt, now);
}

export interface AuditInput {
  action: AuditAction;
  actorId: ObjectId | null;
  /** An operator acting from a terminal (operator.ts), e.g. `cli:alice`: recorded instead of actorId. */
  actor?: string | null;
  subjectId: ObjectId | null;
  reason?: string | null;
  details?: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
}

/** Who changed an organization's settings: a member's user id, or a named actor (`cli:alice`, a setup link, a SCIM token). */
export interface OrganizationActor {
  userId: ObjectId | null;
  actor: string | null;
  ip: string | null;
  userAgent: string | null;
}

/**
 * One audit row for a change to an organization's settings (its domains, SSO connections, SCIM
 * tokens): about no user, the organization and what changed in its details.
 */
export function recordOrganizationChange(
  auth: AuthContext,
  action: AuditAction,
  organizationId: ObjectId,
  by: OrganizationActor,
  details: Record<string, unknown>,
): Promise<void> {
  return recordAuditEvent(auth, {
    action,
    actorId: by.userId,
    actor: by.actor,
    subjectId: null,
    details: { organizationId: organizationId.toHexString(), ...details },
    ip: by.ip,
    userAgent: by.userAgent,
  });
}

/** Appends one event to the audit trail (docs/security.md, ASVS 16.3). */
export async function recordAuditEvent(auth: AuthContext, input: AuditInput): Promise<void> {
  await insertAuditEvent(auth.collections, {
    _id: new ObjectId(),
    action: input.action,
    actorId: input.actor ? null : input.actorId,
    actor: input.actor ?? null,
    subjectId: input.subjectId,
    reason: input.reason ?? null,
    ipAddress: input.ip,
    userAgent: input.userAgent ? input.userAgent.slice(0, 512) : null,
    details: input.details ?? null,
    createdAt: auth.now(),
  });
}

/** The request facts every audit event carries, and the operator when one acts (operator.ts). */
export function auditSource(ctx: { ip: string | null; headers: Headers; session: SessionWithUser | null }): {
  ip: string | null;
  userAgent: string | null;
  actor: string | null;
} {
  return { ip: ctx.ip, userAgent: ctx.headers.get("user-agent"), actor: operatorOf(ctx.session) };
}

/*
 * Reads and writes the endpoints make as they are: the store's, with this instance's collections
 * (endpoints call services, never the store).
 */

export function countAuditEvents(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.countAuditEvents>
): ReturnType<typeof stored.countAuditEvents> {
  return stored.countAuditEvents(auth.collections, ...args);
}

export function countUsers(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.countUsers>
): ReturnType<typeof stored.countUsers> {
  return stored.countUsers(auth.collections, ...args);
}

export function deleteImpersonationSessionsBy(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.deleteImpersonationSessionsBy>
): ReturnType<typeof stored.deleteImpersonationSessionsBy> {
  return stored.deleteImpersonationSessionsBy(auth.collections, ...args);
}

export function deleteSessionById(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.deleteSessionById>
): ReturnType<typeof stored.deleteSessionById> {
  return stored.deleteSessionById(auth.collections, ...args);
}

export function findOrganizationAuditEvents(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.findOrganizationAuditEvents>
): ReturnType<typeof stored.findOrganizationAuditEvents> {
  return stored.findOrganizationAuditEvents(auth.collections, ...args);
}

export function findAuditEvents(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.findAuditEvents>
): ReturnType<typeof stored.findAuditEvents> {
  return stored.findAuditEvents(auth.collections, ...args);
}

export function findSessionById(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.findSessionById>
): ReturnType<typeof stored.findSessionById> {
  return stored.findSessionById(auth.collections, ...args);
}

export function findUsersPage(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.findUsersPage>
): ReturnType<typeof stored.findUsersPage> {
  return stored.findUsersPage(auth.collections, ...args);
}

/**
 * Admin list-users from keyed reads when the query allows one (docs/scale.md): every user by
 * creation time from the timeline, or an address prefix from the address claims; null for any
 * other query, or when those reads cannot answer exactly (the caller then reads the users
 * collection itself, with the same answer).
 */
export async function findUsersPageFromKeys(
  auth: AuthContext,
  query: ListUsersQuery,
  page: UserPage,
): Promise<stored.UsersPage | null> {
  if ((query.sortBy ?? "createdAt") !== "createdAt" || query.filterField !== undefined) return null;
  const direction = page.sort.createdAt === 1 ? 1 : -1;
  const search = query.searchValue ?? "";
  if (search === "") {
    return stored.findUsersPageByTimeline(auth.collections, direction, page.offset, page.limit);
  }
  if ((query.searchField ?? "email") !== "email" || query.searchOperator !== "starts_with") return null;
  // Addresses are stored in lower case (contracts/schemas.ts emailField); the search ignores case.
  return stored.findUsersByEmailPrefix(
    auth.collections,
    search.toLowerCase(),
    direction,
    page.offset,
    page.limit,
  );
}
