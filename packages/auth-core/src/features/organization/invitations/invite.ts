import type { AuthContext } from "../../../context.ts";
import type { InvitationDoc, UserDoc } from "../../../db/documents.ts";
import { type ObjectId, parseId } from "../../../db/ids.ts";
import { granted, type Outcome, refused } from "../../../errors/refusal.ts";
import { canGrantRoles, findUnknownRoles, hasPermission } from "../members/rules.ts";
import { findAddressMembership, findMember, roleTableOf } from "../members/service.ts";
import { findOrganization } from "../organizations/service.ts";
import { findOrganizationTeams } from "../teams/service.ts";
import { isInvitationOpen, pendingInvitationSlot } from "./rules.ts";
import { inviteOrRenew, sendInvitationMail, withdrawInvitation } from "./service.ts";
import { countPendingInvitations, findInvitationBySlot } from "./store.ts";

/**
 * Inviting an address, the one path of POST /organization/invite-member and of an operator's bulk
 * invitations (operator.ts, `tessera invitations send`): the same rules, limits and mail for both.
 */

export interface InviteRequest {
  organizationId: ObjectId;
  /** Who invites: must be a member allowed to create invitations and to grant the roles. */
  inviter: UserDoc;
  /** Lower-cased, already a valid address (the contract's email field). */
  email: string;
  roles: readonly string[];
  teamIds: readonly string[];
  /** Re-arms a pending invitation of the address instead of refusing a second one. */
  resend: boolean;
}

export type InviteRefusal =
  | "NOT_A_MEMBER_OF_ORGANIZATION"
  | "INVITATION_CREATE_NOT_ALLOWED"
  | "MEMBER_ROLE_NOT_FOUND"
  | "INVITATION_ROLE_NOT_ALLOWED"
  | "TEAM_NOT_FOUND"
  | "MEMBER_ALREADY_EXISTS"
  | "INVITATION_ALREADY_PENDING"
  | "INVITATION_LIMIT_REACHED"
  | "ORGANIZATION_NOT_FOUND";

/** An invitation made, and whether its mail (or the app's hook) went out: false when the mail limit refused it. */
export interface SentInvitation {
  invitation: InvitationDoc;
  emailSent: boolean;
}

interface CheckedInvite {
  teamId: string | null;
  invitee: UserDoc | null;
}

/**
 * The checks before any write, in the endpoint's order: the inviter's membership and
 * `invitation:create`, known roles the inviter could grant (nobody grants a role they do not hold),
 * the teams (all of this organization), and an address that is not a member yet.
 */
async function checkInvite(
  auth: AuthContext,
  request: InviteRequest,
): Promise<Outcome<CheckedInvite, InviteRefusal>> {
  const own = await findMember(auth, request.organizationId, request.inviter._id);
  if (!own) return refused("NOT_A_MEMBER_OF_ORGANIZATION");
  const table = roleTableOf(auth);
  if (!hasPermission(own.role, { invitation: ["create"] }, table))
    return refused("INVITATION_CREATE_NOT_ALLOWED");
  if (findUnknownRoles(request.roles, table).length > 0) return refused("MEMBER_ROLE_NOT_FOUND");
  if (!canGrantRoles(own.role, request.roles, table, auth.options.organization.creatorRole))
    return refused("INVITATION_ROLE_NOT_ALLOWED");
  const teamId = await checkTeams(auth, request.organizationId, request.teamIds);
  if (teamId === false) return refused("TEAM_NOT_FOUND");
  const invitee = await findAddressMembership(auth, request.organizationId, request.email);
  if (invitee.isMember) return refused("MEMBER_ALREADY_EXISTS");
  return granted({ teamId, invitee: invitee.user });
}

/**
 * Teams named by id must all belong to the organization, and exist only with teams enabled (a team of
 * another organization is "Team not found", docs/security.md). The stored comma-separated ids, null
 * for none; false when one is not found.
 */
async function checkTeams(
  auth: AuthContext,
  organizationId: ObjectId,
  teamIds: readonly string[],
): Promise<string | null | false> {
  if (teamIds.length === 0) return null;
  if (!auth.options.organization.teams.enabled) return false;
  const ids = teamIds.map((id) => parseId(id));
  if (ids.some((id) => id === null)) return false;
  const teams = await findOrganizationTeams(auth, organizationId, ids as ObjectId[]);
  if (teams.length !== new Set(teamIds).size) return false;
  return teams.map((team) => team._id.toHexString()).join(",");
}

/**
 * Invites: the checks, then the organization (the mail names it), then a pending invitation (one
 * per address: inviteOrRenew) written after its mail's row, with the invitation link (`emailSent`
 * false when the mail limit held it back: the invitation stands, the inviter is told). The
 * organization is read again after the insert: one deleted meanwhile (its cascade may have run
 * before our insert) takes the invitation back, its mail dropped, instead of leaving it behind.
 */
export async function inviteToOrganization(
  auth: AuthContext,
  request: InviteRequest,
): Promise<Outcome<SentInvitation, InviteRefusal>> {
  const checked = await checkInvite(auth, request);
  if (!checked.ok) return checked;
  const organization = await findOrganization(auth, request.organizationId);
  if (!organization) return refused("ORGANIZATION_NOT_FOUND");
  const fields = {
    organizationId: request.organizationId,
    email: request.email,
    role: request.roles.join(","),
    teamId: checked.value.teamId,
    inviterId: request.inviter._id,
  };
  const language = checked.value.invitee?.language;
  try {
    return await inviteOrRenew(auth, fields, request.resend, (invitation, stored) =>
      sendInvitationMail(auth, invitation, organization, request.inviter, language, async () => {
        await stored();
        if (await findOrganization(auth, request.organizationId)) return;
        await withdrawInvitation(auth, invitation);
        throw new OrganizationGone();
      }),
    );
  } catch (error) {
    if (error instanceof OrganizationGone) return refused("ORGANIZATION_NOT_FOUND");
    throw error;
  }
}

/** The organization went while its invitation was written: the invitation is taken back. */
class OrganizationGone extends Error {}

/**
 * What inviteToOrganization would answer, without writing or mailing (`--dry-run`): every check,
 * the one-pending-invitation rule, and the invitation limit counting `planned` invitations this
 * run would create before this one. Null when it would invite.
 */
export async function findInviteRefusal(
  auth: AuthContext,
  request: InviteRequest,
  planned: number,
): Promise<InviteRefusal | null> {
  const checked = await checkInvite(auth, request);
  if (!checked.ok) return checked.code;
  const config = auth.options.organization;
  const now = auth.now();
  const slot = pendingInvitationSlot(request.organizationId.toHexString(), request.email);
  const existing = await findInvitationBySlot(auth.collections, slot);
  const open = existing !== null && isInvitationOpen(existing, now);
  if (open && !request.resend && !config.cancelPendingInvitationsOnReInvite)
    return "INVITATION_ALREADY_PENDING";
  if (open && request.resend) return null;
  const pending = await countPendingInvitations(auth.collections, request.organizationId, now);
  return pending - (open ? 1 : 0) + planned >= config.invitationLimit ? "INVITATION_LIMIT_REACHED" : null;
}
