import type { AuthContext } from "../../../context.ts";
import { isDuplicateKeyError } from "../../../db/connect.ts";
import type { MemberDoc, OrganizationDoc, SessionDoc, TeamDoc, UserDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import type { ErrorCode } from "../../../errors/catalogue.ts";
import { granted, type Outcome, refused } from "../../../errors/refusal.ts";
import type { CookieJar } from "../../../http/cookie-jar.ts";
import { isApiKeySession } from "../../api-key/index.ts";
import { completeJournaledDeletion } from "../../events/index.ts";
import { applyAfterHook, applyBeforeHook } from "../../hooks.ts";
import { toMailUser } from "../../mail-dispatch.ts";
import {
  forgetPendingDeletion,
  listPendingDeletions,
  recordPendingDeletion,
} from "../../pending-deletions/index.ts";
import {
  clearActiveOrganizationOfSessions,
  type SessionWithUser,
  setCookieCache,
  setSessionActiveOrganization,
  setSessionActiveOrganizationReturning,
} from "../../session/index.ts";
import { deleteInvitationsOf } from "../invitations/service.ts";
import {
  countUserMemberships,
  deleteMember,
  deleteOrganizationMembers,
  findUser,
  insertCreatorMember,
  listUserMemberships,
} from "../members/service.ts";
import {
  deleteOrganizationTeams,
  deleteUserTeamMemberships,
  findOrganizationTeams,
} from "../teams/service.ts";
import { insertWithinLimit } from "./bounded-insert.ts";
import * as store from "./store.ts";

/**
 * Organizations: create, delete (the cascade over members, invitations and teams), which one a call
 * is about, and the session's active organization. The top of the four: it uses the members,
 * invitations and teams services; none of them uses this.
 */

/**
 * creation may be disabled or decided by a function. The per-user cap is applied where the
 * creator's row is inserted (createOrganizationWithOwner), as only a count after it is exact.
 */
export async function mayCreateOrganization(auth: AuthContext, user: UserDoc): Promise<boolean> {
  const allow = auth.options.organization.allowUserToCreateOrganization;
  const allowed = typeof allow === "function" ? await allow(toMailUser(user)) : allow;
  return allowed === true;
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
  const count = await countUserMemberships(auth, userId);
  const limit = auth.options.organization.organizationLimit;
  if (limit === undefined || count < limit) return count;
  const rows = await listUserMemberships(auth, userId, MEMBERSHIP_READ_CAP);
  const existing = await store.findOrganizationsByIds(
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
 * before the organization's insert, so a refusal leaves nothing behind. False when the limit refused.
 */
async function insertCreatorWithinLimit(auth: AuthContext, member: MemberDoc): Promise<boolean> {
  const limit = auth.options.organization.organizationLimit;
  if (limit === undefined) {
    await insertCreatorMember(auth, member);
    return true;
  }
  const inserted = await insertWithinLimit<MemberDoc>(
    {
      count: () => countLimitedMemberships(auth, member.userId),
      insert: async () => {
        await insertCreatorMember(auth, member);
        return member;
      },
      undo: async () => {
        await deleteMember(auth, member);
      },
    },
    limit,
  );
  return inserted !== null;
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
): Promise<
  Outcome<
    { organization: OrganizationDoc; member: MemberDoc },
    "ORGANIZATION_LIMIT_REACHED" | "ORGANIZATION_ALREADY_EXISTS"
  >
> {
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
  if (!(await insertCreatorWithinLimit(auth, member))) return refused("ORGANIZATION_LIMIT_REACHED");
  try {
    await store.insertOrganization(auth.collections, organization);
  } catch (error) {
    await deleteMember(auth, member);
    if (isDuplicateKeyError(error)) return refused("ORGANIZATION_ALREADY_EXISTS");
    throw error;
  }
  return granted({ organization, member });
}

/**
 * docs/decisions/: deleting removes members, invitations, teams and team memberships, and clears the
 * organization as active on every session. The organization row goes first (its delete count picks
 * the one winner of concurrent deletes; from then on every read ignores the rest), after a journal
 * entry (features/pending-deletions): a crash before the cascade ends leaves the entry, and
 * `auth.cleanup()` finishes the cascade (finishInterruptedOrganizationDeletions).
 */
export async function deleteOrganizationCascade(auth: AuthContext, id: ObjectId): Promise<boolean> {
  // The deletion's event rides in its journal entry: stored when it completes (features/events).
  const deleted = store.organizationDeletedEvent(id, auth.now());
  const entry = await recordPendingDeletion(auth.collections, "organization", id, auth.now(), null, [
    deleted,
  ]);
  if (!(await store.deleteOrganizationById(auth.collections, id))) {
    await forgetPendingDeletion(auth.collections, entry);
    return false;
  }
  await deleteOrganizationRows(auth, id);
  completeJournaledDeletion(auth.collections, entry);
  return true;
}

/** What points at a deleted organization; each step can run again (a finish after a crash). */
async function deleteOrganizationRows(auth: AuthContext, id: ObjectId): Promise<void> {
  await deleteOrganizationMembers(auth, id);
  await deleteInvitationsOf(auth, id);
  await deleteOrganizationTeams(auth, id);
  await clearActiveOrganizationOfSessions(auth, id.toHexString());
}

/**
 * For `auth.cleanup()`: finishes the organization deletions a crash cut short. The deletion was
 * decided (the entry is written after every check), so it goes forward: the row if it is still
 * there, then its rows. A deletion still in flight meets the same idempotent deletes. Answers how
 * many were finished.
 */
export async function finishInterruptedOrganizationDeletions(auth: AuthContext): Promise<number> {
  const entries = await listPendingDeletions(auth.collections, "organization");
  for (const entry of entries) {
    await store.deleteOrganizationById(auth.collections, entry.targetId);
    await deleteOrganizationRows(auth, entry.targetId);
    completeJournaledDeletion(auth.collections, entry._id);
  }
  return entries.length;
}

/**
 * Writes the session's active organization and team through the session update hooks, and
 * re-issues the cookie cache so get-session shows the change at once (a stale cache
 * would keep answering the old one for its whole max age). A `before` hook may change the two fields
 * (nothing else: not the user, not the token) or refuse: SESSION_UPDATE_REFUSED, nothing written.
 * The `after` hook sees the stored session, and runs only when the session still existed. False when
 * a hook refused (the endpoint answers SESSION_UPDATE_REFUSED).
 */
export async function writeActiveOrganization(
  auth: AuthContext,
  jar: CookieJar,
  caller: SessionWithUser,
  organizationId: string | null,
  teamId: string | null,
): Promise<boolean> {
  // An API-key caller has no session row (features/api-key/session-bridge.ts): nothing to make active.
  if (isApiKeySession(caller)) return true;
  const hooks = auth.options.hooks?.session?.update;
  const change = await applyBeforeHook<Partial<SessionDoc>>(hooks, {
    activeOrganizationId: organizationId,
    activeTeamId: teamId,
  });
  if (!change) return false;
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
  return true;
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

/**
 * After a membership insert (add-member, accept-invitation): reads again what the new rows point
 * at. Each deletion removes its own row before the rows pointing at it (organization → members →
 * team memberships; remove-team → team → memberships; user deletion → memberships → user → a last
 * sweep of memberships), so a row inserted after its cascade read them is caught here. When
 * something is gone, the member row and its team memberships are taken back and the error to answer
 * is returned; null when all is still there.
 */
export async function takeBackMembershipIfOrphaned(
  auth: AuthContext,
  member: MemberDoc,
  teams: readonly TeamDoc[],
): Promise<ErrorCode | null> {
  const gone = await findWhatWentMeanwhile(auth, member.organizationId, member.userId, teams);
  if (gone) {
    await deleteMember(auth, member);
    await deleteUserTeamMemberships(auth, member.organizationId, member.userId);
  }
  return gone;
}

async function findWhatWentMeanwhile(
  auth: AuthContext,
  organizationId: ObjectId,
  userId: ObjectId,
  teams: readonly TeamDoc[],
): Promise<"ORGANIZATION_NOT_FOUND" | "MEMBER_USER_NOT_FOUND" | "TEAM_NOT_FOUND" | null> {
  if (!(await store.findOrganizationById(auth.collections, organizationId))) return "ORGANIZATION_NOT_FOUND";
  if (!(await findUser(auth, userId))) return "MEMBER_USER_NOT_FOUND";
  if (teams.length === 0) return null;
  const ids = teams.map((team) => team._id);
  const left = await findOrganizationTeams(auth, organizationId, ids);
  return left.length === teams.length ? null : "TEAM_NOT_FOUND";
}

/** An organization by id; null when there is none. */
export function findOrganization(auth: AuthContext, id: ObjectId): Promise<OrganizationDoc | null> {
  return store.findOrganizationById(auth.collections, id);
}

/** An organization by slug; null when there is none. */
export function findOrganizationBySlug(auth: AuthContext, slug: string): Promise<OrganizationDoc | null> {
  return store.findOrganizationBySlug(auth.collections, slug);
}

export async function isSlugTaken(auth: AuthContext, slug: string): Promise<boolean> {
  return (await findOrganizationBySlug(auth, slug)) !== null;
}

export type OrganizationFields = Partial<Pick<OrganizationDoc, "name" | "slug" | "logo" | "metadata">>;

/** Writes the fields; a slug taken by another organization (its unique index decides) is refused. */
export async function updateOrganizationFields(
  auth: AuthContext,
  id: ObjectId,
  fields: OrganizationFields,
): Promise<{ ok: true; organization: OrganizationDoc } | { ok: false; reason: "slug-taken" | "not-found" }> {
  let updated: OrganizationDoc | null;
  try {
    updated = await store.updateOrganizationFields(auth.collections, id, fields);
  } catch (error) {
    if (isDuplicateKeyError(error)) return { ok: false, reason: "slug-taken" };
    throw error;
  }
  return updated ? { ok: true, organization: updated } : { ok: false, reason: "not-found" };
}

/**
 * The organizations a user is a member of, oldest membership first, one page: two indexed reads. A
 * membership whose organization is gone is skipped, so a page may hold fewer than `limit`.
 */
export async function listUserOrganizations(
  auth: AuthContext,
  userId: ObjectId,
  limit: number,
  offset: number,
): Promise<OrganizationDoc[]> {
  const memberships = await listUserMemberships(auth, userId, limit, offset);
  const organizations = await store.findOrganizationsByIds(
    auth.collections,
    memberships.map((member) => member.organizationId),
  );
  const byId = new Map(organizations.map((organization) => [organization._id.toHexString(), organization]));
  return memberships.flatMap((member) => {
    const organization = byId.get(member.organizationId.toHexString());
    return organization ? [organization] : [];
  });
}

/** Organizations by id (missing ones are simply left out). */
export function findOrganizationsByIds(
  auth: AuthContext,
  ids: readonly ObjectId[],
): Promise<OrganizationDoc[]> {
  return store.findOrganizationsByIds(auth.collections, ids);
}

/** Organizations whose slug contains `slugPart`, oldest first: one page and the total (operator listing). */
export function listOrganizationsPage(
  auth: AuthContext,
  query: { slugPart?: string; limit: number; offset: number },
): Promise<{ organizations: OrganizationDoc[]; total: number }> {
  return store.listOrganizationsPage(auth.collections, query);
}
