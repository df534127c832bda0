/**
 * `@tessera/auth-core/operator`: administration from a terminal (the `tessera` CLI), for server code
 * only. `createOperatorApi(auth, "cli:alice")` is `auth.api` with the operator as every call's
 * caller: the same endpoints, schemas and rules as the HTTP admin area, the operator holding every
 * admin permission, and audit events recording the actor (features/admin/operator.ts).
 */
import type { AdminUser } from "./contracts/admin-models.ts";
import type { UserExport } from "./contracts/user-export.ts";
import { type Auth, coreMigrationSteps } from "./create-auth.ts";
import { type ObjectId, parseId } from "./db/ids.ts";
import { CORE_MIGRATIONS, readAppliedMigrations, runMigrations } from "./db/migrations/index.ts";
import { AuthError } from "./errors/auth-error.ts";
import { findAllListedUsers, operatorCaller } from "./features/admin/operator.ts";

import type { CoreEndpoint } from "./features/registry.ts";
import { findSessionById as findStoredSession } from "./features/session/index.ts";
import { exportUserDataByEmail } from "./features/user-export/index.ts";
import { accountIdOf, updateUser } from "./features/users/index.ts";
import { createApi, type TypedApi } from "./http/api.ts";
import type { CallerResolvers } from "./http/caller.ts";

export type { UserExport } from "./contracts/user-export.ts";
export {
  type CheckedCollection,
  checkEmailClaims,
  checkUserTimeline,
  clearActiveOrganizations,
  deleteRowsOfMissingUsers,
  type EmailClaimGaps,
  type RemovableCollection,
  readStoredRows,
  type StoredRows,
  type TimelineGaps,
} from "./operator-checks.ts";
export { createOperatorDomains, type OrganizationDomain } from "./operator-domains.ts";
export {
  deleteOrganizationRows,
  type ImportedCollection,
  importRows,
  type OrphanRows,
} from "./operator-import.ts";
export {
  createImportChecks,
  type ImportCheck,
  type ImportChecks,
  type ImportedOrganizationFields,
  type ImportedUserFields,
} from "./operator-import-checks.ts";
export { createOperatorMail, type MailSummary, type OperatorMail } from "./operator-mail.ts";
export {
  createOperatorOrganizations,
  type OperatorMember,
  type OperatorOrganization,
  parseInvitee,
} from "./operator-organizations.ts";
export { createOperatorScim, type GeneratedScimToken, type ScimConnection } from "./operator-scim.ts";
export { createOperatorSso, type SsoProvider, type SsoProviderTest } from "./operator-sso.ts";
export { createOperatorTeams, type Team, type TeamMember } from "./operator-teams.ts";

export function createOperatorApi(auth: Auth, actor: string): TypedApi<CoreEndpoint> {
  if (!/^[\w.:@-]{1,100}$/.test(actor))
    throw new TypeError(`operator name ${JSON.stringify(actor)} is not valid`);
  const resolvers: CallerResolvers = {
    readApiKeySession: async () => null,
    assertApiKeyCallerAllowed: () => {},
    readSession: async (context) => operatorCaller(actor, context.now()),
    // auth.api has no cookie-cache branch (that is the HTTP engine's); never asked.
    readCachedSession: () => null,
    isSessionFresh: () => true,
  };
  return createApi<CoreEndpoint>(auth.context, auth.endpoints, resolvers);
}

/**
 * For `tessera import`: the `_id` an account is stored under (its provider identity's,
 * docs/scale.md), so a second run finds the accounts it copied before.
 */
export function importedAccountId(providerId: string, accountId: string): ObjectId {
  return accountIdOf(providerId, accountId);
}

/**
 * Stored fields no endpoint lets a database's first users set — the verified flag of made-up
 * addresses, the admin role before any admin exists — for server code that seeds a database (the
 * demo's seed), through the users' own update: what follows a write to a user (the listing bumps)
 * follows. No audit event: no one acts yet. False when there is no such user.
 */
export async function setSeededUserFields(
  auth: Auth,
  userId: string,
  fields: { emailVerified?: boolean; role?: string },
): Promise<boolean> {
  const id = parseId(userId);
  return id !== null && (await updateUser(auth.context, id, fields)) !== null;
}

export interface MigrationState {
  id: string;
  /** When it was recorded in `_migrations`; null while pending. */
  appliedAt: Date | null;
}

/** Every core migration in order, applied or pending (`tessera migrate status`). */
export async function migrationStatus(auth: Auth): Promise<MigrationState[]> {
  const applied = await readAppliedMigrations(auth.context.collections);
  return CORE_MIGRATIONS.map((migration) => ({
    id: migration.id,
    appliedAt: applied.get(migration.id) ?? null,
  }));
}

/**
 * `auth.migrate()` one migration at a time, calling `onStart` before each pending one (progress for
 * `tessera migrate up`). Returns the ids it applied.
 */
export async function migrateStepByStep(auth: Auth, onStart: (id: string) => void): Promise<string[]> {
  const pending = (await migrationStatus(auth)).filter((state) => state.appliedAt === null);
  const applied: string[] = [];
  for (const { id } of pending) {
    onStart(id);
    const migration = CORE_MIGRATIONS.find((candidate) => candidate.id === id)!;
    applied.push(
      ...(await runMigrations(auth.context.collections, [migration], auth.context.now, coreMigrationSteps)),
    );
  }
  return applied;
}

/**
 * Every user the list-users query matches, in one read (`tessera users list --all`): list-users
 * pages with an offset, which costs a sort per page on FerretDB. VALIDATION_ERROR for a bad query.
 */
export async function listAllUsers(
  auth: Auth,
  query: Parameters<typeof findAllListedUsers>[1],
): Promise<AdminUser[]> {
  const users = await findAllListedUsers(auth, query);
  if (!users) throw new AuthError("VALIDATION_ERROR");
  return users;
}

/** A session as an operator's prompt shows it (`tessera sessions revoke`): never its token. */
export interface OperatorSessionInfo {
  id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
}

/** A session by id, read before a revoke asks; null when there is none (or the id is not one). */
export async function findSessionById(auth: Auth, sessionId: string): Promise<OperatorSessionInfo | null> {
  const id = parseId(sessionId);
  const doc = id ? await findStoredSession(auth.context.collections, id) : null;
  if (!doc) return null;
  return {
    id: doc._id.toHexString(),
    userId: doc.userId.toHexString(),
    createdAt: doc.createdAt,
    expiresAt: doc.expiresAt,
    ipAddress: doc.ipAddress,
    userAgent: doc.userAgent,
  };
}

/**
 * Everything held about the user with this address (`tessera export --user`), or null when nobody
 * has it: the export GET /export-user-data gives the user, built by the same function, so an
 * operator hands over no secret and no staff detail the user would not get themselves.
 */
export function exportUserByEmail(auth: Auth, email: string): Promise<UserExport | null> {
  return exportUserDataByEmail(auth.context, email);
}
