/**
 * `@tessera/auth-core/operator`: administration from a terminal (the `tessera` CLI), for server code
 * only. `createOperatorApi(auth, "cli:alice")` is `auth.api` with the operator as every call's
 * caller: the same endpoints, schemas and rules as the HTTP admin area, the operator holding every
 * admin permission, and audit events recording the actor (features/admin/operator.ts).
 */
import type { AdminUser } from "./contracts/admin-models.ts";
import type { Auth } from "./create-auth.ts";
import type { MemberDoc, OrganizationDoc } from "./db/documents.ts";
import { type ObjectId, parseId } from "./db/ids.ts";
import { CORE_MIGRATIONS, runMigrations } from "./db/migrations/index.ts";
import { AuthError } from "./errors/auth-error.ts";
import { findAllListedUsers, operatorCaller } from "./features/admin/operator.ts";

import type { AuditAction } from "./features/admin/rules.ts";
import { recordAuditEvent } from "./features/admin/service.ts";
import {
  deleteOrganizationCascade,
  dropCreatorRole,
  holdsRole,
  removeMembership,
  setMemberRole,
} from "./features/organization/index.ts";
import type { CoreEndpoint } from "./features/registry.ts";
import { accountIdOf } from "./features/users/index.ts";
import { createApi, type TypedApi } from "./http/api.ts";
import type { CallerResolvers } from "./http/caller.ts";

export function createOperatorApi(auth: Auth, actor: string): TypedApi<CoreEndpoint> {
  if (!/^[\w.:@-]{1,100}$/.test(actor))
    throw new TypeError(`operator name ${JSON.stringify(actor)} is not valid`);
  const resolvers: CallerResolvers = {
    readApiKeySession: async () => null,
    assertApiKeyCallerAllowed: () => {},
    readSession: async (context) => operatorCaller(actor, context.now()),
    isSessionFresh: () => true,
  };
  return createApi<CoreEndpoint>(auth.context, auth.endpoints, resolvers);
}

/**
 * For tools that write users and accounts straight into the collections (`tessera import`):
 * the `_id` an account must be stored under (its provider identity's, docs/scale.md), and the
 * address claim each user needs to be found by email (collection `emailClaims`).
 */
export const storedIds = {
  account: (providerId: string, accountId: string): ObjectId => accountIdOf(providerId, accountId),
  emailClaim: (user: { _id: ObjectId; email: string }, now: Date) => ({
    _id: user.email,
    userId: user._id,
    createdAt: now,
  }),
  emailClaimsCollection: "emailClaims",
} as const;

export interface MigrationState {
  id: string;
  /** When it was recorded in `_migrations`; null while pending. */
  appliedAt: Date | null;
}

/** Every core migration in order, applied or pending (`tessera migrate status`). */
export async function migrationStatus(auth: Auth): Promise<MigrationState[]> {
  const applied = new Map(
    (await auth.context.collections.migrations.find({}).toArray()).map((doc) => [doc._id, doc.appliedAt]),
  );
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
    applied.push(...(await runMigrations(auth.context.collections, [migration], auth.context.now)));
  }
  return applied;
}

/** An organization as the operator sees it: its fields and how many members it has. */
export interface OperatorOrganization {
  id: string;
  name: string;
  slug: string;
  createdAt: Date;
  members: number;
}

export interface OperatorMember {
  id: string;
  userId: string;
  email: string | null;
  name: string | null;
  role: string;
  createdAt: Date;
}

/**
 * An operator's organization work (`tessera orgs …`): reads for listing, and changes through the
 * organization feature's own services so its rules hold — the only owner can be neither removed nor
 * demoted, a deleted organization takes its members, invitations and teams with it — each change
 * recorded in the audit trail with the operator as actor. Adding a member is `auth.api.addMember`
 * (server-only, with its limits); this covers the rest.
 */
export function createOperatorOrganizations(auth: Auth, actor: string) {
  const context = auth.context;
  const { collections } = context;
  const record = (action: AuditAction, subjectId: ObjectId | null, details: Record<string, unknown>) =>
    recordAuditEvent(context, {
      action,
      actorId: null,
      actor,
      subjectId,
      details,
      ip: null,
      userAgent: null,
    });

  async function counted(orgs: OrganizationDoc[]): Promise<OperatorOrganization[]> {
    return Promise.all(
      orgs.map(async (org) => ({
        id: org._id.toHexString(),
        name: org.name,
        slug: org.slug,
        createdAt: org.createdAt,
        members: await collections.members.countDocuments({ organizationId: org._id }),
      })),
    );
  }

  async function findOrganization(idOrSlug: string): Promise<OrganizationDoc | null> {
    const id = parseId(idOrSlug);
    return collections.organizations.findOne(id ? { _id: id } : { slug: idOrSlug.toLowerCase() });
  }

  async function findMember(org: OrganizationDoc, userId: string): Promise<MemberDoc | null> {
    const id = parseId(userId);
    return id ? collections.members.findOne({ organizationId: org._id, userId: id }) : null;
  }

  return {
    async list(options: { search?: string; limit: number; offset: number }) {
      const filter = options.search
        ? { slug: { $regex: options.search.replace(/[^\w-]/g, ""), $options: "i" } }
        : {};
      const [orgs, total] = await Promise.all([
        collections.organizations
          .find(filter)
          .sort({ createdAt: 1, _id: 1 })
          .skip(options.offset)
          .limit(options.limit)
          .toArray(),
        collections.organizations.countDocuments(filter),
      ]);
      return { organizations: await counted(orgs), total };
    },

    findOrganization,

    async show(org: OrganizationDoc) {
      const [organization] = await counted([org]);
      const members = await collections.members
        .find({ organizationId: org._id })
        .sort({ createdAt: 1 })
        .toArray();
      const users = await collections.users
        .find({ _id: { $in: members.map((member) => member.userId) } })
        .toArray();
      const byId = new Map(users.map((user) => [user._id.toHexString(), user]));
      const pending = await collections.invitations.countDocuments({
        organizationId: org._id,
        status: "pending",
      });
      const list: OperatorMember[] = members.map((member) => {
        const user = byId.get(member.userId.toHexString());
        return {
          id: member._id.toHexString(),
          userId: member.userId.toHexString(),
          email: user?.email ?? null,
          name: user?.name ?? null,
          role: member.role,
          createdAt: member.createdAt,
        };
      });
      return { organization: organization!, members: list, pendingInvitations: pending };
    },

    async recordAddMember(org: OrganizationDoc, userId: string, role: string): Promise<void> {
      await record("organization.add-member", parseId(userId), {
        organizationId: org._id.toHexString(),
        role,
      });
    },

    /** The sole-owner rule holds: CANNOT_LEAVE_AS_ONLY_OWNER (AuthError, like every refusal here). */
    async removeMember(org: OrganizationDoc, userId: string): Promise<void> {
      const member = await findMember(org, userId);
      if (!member) throw new AuthError("MEMBER_NOT_FOUND");
      const removed = await removeMembership(context, member);
      if (removed === false) throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
      if (removed === null) throw new AuthError("MEMBER_NOT_FOUND");
      await record("organization.remove-member", member.userId, {
        organizationId: org._id.toHexString(),
        role: member.role,
      });
    },

    /** Known roles only; the only owner cannot lose the creator role. */
    async setMemberRole(org: OrganizationDoc, userId: string, roles: readonly string[]): Promise<void> {
      const { roles: custom, creatorRole } = context.options.organization;
      const known = new Set(["owner", "admin", "member", creatorRole, ...Object.keys(custom)]);
      if (roles.length === 0 || roles.some((role) => !known.has(role)))
        throw new AuthError("MEMBER_ROLE_NOT_FOUND");
      const member = await findMember(org, userId);
      if (!member) throw new AuthError("MEMBER_NOT_FOUND");
      const role = roles.join(",");
      if (holdsRole(member.role, creatorRole) && !roles.includes(creatorRole)) {
        if (!(await dropCreatorRole(context, member, role)))
          throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
      } else await setMemberRole(context, member._id, role);
      await record("organization.set-member-role", member.userId, {
        organizationId: org._id.toHexString(),
        before: member.role,
        after: role,
      });
    },

    /** The organization with its members, invitations and teams. */
    async deleteOrganization(org: OrganizationDoc): Promise<void> {
      if (!(await deleteOrganizationCascade(context, org._id))) throw new AuthError("ORGANIZATION_NOT_FOUND");
      await record("organization.delete", null, { organizationId: org._id.toHexString(), slug: org.slug });
    },
  };
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
