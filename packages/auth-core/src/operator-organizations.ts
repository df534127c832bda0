/**
 * An operator's organization work for `@tessera/auth-core/operator` (re-exported by operator.ts):
 * listing, membership changes and bulk invitations through the organization feature's own services.
 */

import { createInvitationContract } from "./contracts/organization-invitations.ts";
import type { Invitation } from "./contracts/organization-models.ts";
import type { Auth } from "./create-auth.ts";
import type { MemberDoc, OrganizationDoc, TeamDoc, UserDoc } from "./db/documents.ts";
import { type ObjectId, parseId } from "./db/ids.ts";
import { AuthError } from "./errors/auth-error.ts";
import { granted, type Outcome, refused } from "./errors/refusal.ts";
import type { AuditAction } from "./features/admin/rules.ts";
import { recordAuditEvent } from "./features/admin/service.ts";
import {
  countMembers,
  countPendingInvitationsOf,
  deleteOrganizationCascade,
  dropCreatorRole,
  findInviteRefusal,
  findMember as findMemberRow,
  findOrganization as findOrganizationById,
  findOrganizationBySlug,
  findTeamByIdOrName,
  findUnknownRoles,
  findUser,
  holdsRole,
  type InviteRefusal,
  inviteToOrganization,
  listAllMembers,
  listAllMembersWithUsers,
  listOrganizationsPage,
  removeMembership,
  roleTableOf,
  setMemberRole,
  toInvitation,
} from "./features/organization/index.ts";
import { findUserByEmail } from "./features/users/index.ts";

/**
 * An invitee as POST /organization/invite-member's input schema reads it: the address trimmed and
 * lower-cased, the roles a comma-separated list (default "member"). INVALID_EMAIL or
 * VALIDATION_ERROR (an empty or over-long role list) when the endpoint would refuse the input.
 */
export function parseInvitee(
  email: string,
  role: string,
): Outcome<{ email: string; roles: string[] }, "INVALID_EMAIL" | "VALIDATION_ERROR"> {
  const parsed = createInvitationContract.body!.safeParse({ email, role: role === "" ? "member" : role });
  if (parsed.success) return granted({ email: parsed.data.email, roles: parsed.data.role });
  return refused(
    parsed.error.issues.some((issue) => issue.path[0] === "email") ? "INVALID_EMAIL" : "VALIDATION_ERROR",
  );
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
        members: await countMembers(context, org._id),
      })),
    );
  }

  async function findOrganization(idOrSlug: string): Promise<OrganizationDoc | null> {
    const id = parseId(idOrSlug);
    return id ? findOrganizationById(context, id) : findOrganizationBySlug(context, idOrSlug.toLowerCase());
  }

  async function findMember(org: OrganizationDoc, userId: string): Promise<MemberDoc | null> {
    const id = parseId(userId);
    return id ? findMemberRow(context, org._id, id) : null;
  }

  return {
    async list(options: { search?: string; limit: number; offset: number }) {
      const { organizations, total } = await listOrganizationsPage(context, {
        slugPart: options.search?.replace(/[^\w-]/g, ""),
        limit: options.limit,
        offset: options.offset,
      });
      return { organizations: await counted(organizations), total };
    },

    findOrganization,

    async show(org: OrganizationDoc) {
      const [organization] = await counted([org]);
      const members = await listAllMembersWithUsers(context, org._id);
      const pending = await countPendingInvitationsOf(context, org._id);
      const list: OperatorMember[] = members.map(({ member, user }) => {
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

    /** The organization roles this instance knows (its role table: the defaults and `organization.roles`). */
    roleNames(): string[] {
      return Object.keys(roleTableOf(context));
    },

    /** Known roles only; the only owner cannot lose the creator role. */
    async setMemberRole(org: OrganizationDoc, userId: string, roles: readonly string[]): Promise<void> {
      const { creatorRole } = context.options.organization;
      if (roles.length === 0 || findUnknownRoles(roles, roleTableOf(context)).length > 0)
        throw new AuthError("MEMBER_ROLE_NOT_FOUND");
      const member = await findMember(org, userId);
      if (!member) throw new AuthError("MEMBER_NOT_FOUND");
      const role = roles.join(",");
      if (holdsRole(member.role, creatorRole) && !roles.includes(creatorRole)) {
        if (!(await dropCreatorRole(context, member, role)))
          throw new AuthError("CANNOT_LEAVE_AS_ONLY_OWNER");
      } else await setMemberRole(context, member, role);
      await record("organization.set-member-role", member.userId, {
        organizationId: org._id.toHexString(),
        before: member.role,
        after: role,
      });
    },

    /** A team of the organization by id, else by exact name (case-insensitive); null when none. */
    findTeam(org: OrganizationDoc, idOrName: string): Promise<TeamDoc | null> {
      return findTeamByIdOrName(context, org._id, idOrName);
    },

    /** The user's member row's role in the organization; null when they are not a member. */
    async memberRole(org: OrganizationDoc, userId: ObjectId | string): Promise<string | null> {
      return (
        (await findMember(org, typeof userId === "string" ? userId : userId.toHexString()))?.role ?? null
      );
    },

    /** A user by email (stored lower-cased); null when none. */
    findUserByEmail(email: string): Promise<UserDoc | null> {
      return findUserByEmail(context.collections, email.trim().toLowerCase());
    },

    /** The oldest member holding the creator role (`owner`), the default inviter; null when none. */
    async findOwner(org: OrganizationDoc): Promise<UserDoc | null> {
      const { creatorRole } = context.options.organization;
      const members = await listAllMembers(context, org._id);
      const owner = members.find((member) => holdsRole(member.role, creatorRole));
      return owner ? findUser(context, owner.userId) : null;
    },

    /**
     * Invites one address on behalf of `inviter` through the invite endpoint's own path
     * (features/organization/invitations/invite.ts): the same rules, limits, one pending invitation
     * per address, and the invitation mail; recorded as "organization.invite" with the operator as
     * actor. With `dryRun`, checks the same rules without writing or mailing (`planned`: the
     * invitations this run would have created before this one, for the limit); the value is null.
     */
    async invite(
      org: OrganizationDoc,
      inviter: UserDoc,
      row: { email: string; roles: readonly string[]; teamIds: readonly string[] },
      options: { dryRun: boolean; planned: number },
    ): Promise<Outcome<Invitation | null, InviteRefusal>> {
      const request = { organizationId: org._id, inviter, ...row, resend: false };
      if (options.dryRun) {
        const refusal = await findInviteRefusal(context, request, options.planned);
        return refusal ? refused(refusal) : granted(null);
      }
      const outcome = await inviteToOrganization(context, request);
      if (!outcome.ok) return outcome;
      const { invitation } = outcome.value;
      await record("organization.invite", null, {
        organizationId: org._id.toHexString(),
        invitationId: invitation._id.toHexString(),
        email: invitation.email,
        role: invitation.role,
        inviterId: inviter._id.toHexString(),
      });
      return granted(toInvitation(invitation));
    },

    /** The organization with its members, invitations and teams. */
    async deleteOrganization(org: OrganizationDoc): Promise<void> {
      if (!(await deleteOrganizationCascade(context, org._id))) throw new AuthError("ORGANIZATION_NOT_FOUND");
      await record("organization.delete", null, { organizationId: org._id.toHexString(), slug: org.slug });
    },
  };
}
