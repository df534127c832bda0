import type { AuthContext } from "../../../context.ts";
import { isDuplicateKeyError } from "../../../db/connect.ts";
import type {
  InvitationDoc,
  InvitationStatus,
  MemberDoc,
  OrganizationDoc,
  TeamDoc,
  UserDoc,
} from "../../../db/documents.ts";
import { ObjectId, parseId } from "../../../db/ids.ts";
import type { RawPage } from "../../../db/raw-page.ts";
import { granted, type Outcome, refused } from "../../../errors/refusal.ts";
import { dispatchMail, toMailUser } from "../../mail-dispatch.ts";
import { findUserByEmail } from "../../users/index.ts";
import { claimOneTimeToken, findOneTimeTokens, releaseOneTimeToken } from "../../verification/index.ts";
import { canGrantRoles, hasPermission, parseRoles } from "../members/rules.ts";
import { addMemberWithinLimit, deleteMember, findMember, roleTableOf } from "../members/service.ts";
import { insertWithinLimit } from "../organizations/bounded-insert.ts";
import { findOrganizationTeams, joinTeams } from "../teams/service.ts";
import { closedInvitationSlot, isInvitationOpen, pendingInvitationSlot } from "./rules.ts";
import {
  closeInvitationSlot,
  countPendingInvitations,
  deleteInvitationById,
  deleteInviterPendingInvitations,
  deleteOrganizationInvitations,
  deleteStalePendingInvitations,
  findInvitationById,
  findInvitationBySlot,
  insertInvitation,
  listOrganizationInvitations,
  listOrganizationInvitationsRaw,
  listPendingInvitationsByEmail,
  renewInvitation,
  setInvitationStatus,
} from "./store.ts";

export interface NewInvitation {
  organizationId: ObjectId;
  email: string;
  role: string;
  teamId: string | null;
  inviterId: ObjectId;
}

/**
 * Mails an invitation (sendInvitationMail) around its write: `stored` writes it, run after the
 * mail's row and before its send (queue.linkStored); when it throws, the mail is dropped, never sent,
 * and the error reaches inviteOrRenew. False when the mail limit refused the mail (the invitation is
 * written all the same).
 */
type InvitationMailing = (invitation: InvitationDoc, stored: () => Promise<void>) => Promise<boolean>;

/**
 * Creates a pending invitation, or — with `resend` — re-arms the pending one (new expiry, role and
 * teams), and mails it through `mail`. At most one pending invitation per address and organization:
 * the unique `slot` decides concurrent invites (docs/security.md). An expired pending one frees its
 * slot first. A new invitation's mail row is stored before the invitation (its id chosen first): a
 * crash between leaves a mail whose link finds no invitation, never an invitation nobody was mailed
 * (docs/architecture.md "Mail"); a refused insert (already pending, over the limit) drops the mail.
 * A renewed one keeps its id, so the link it was mailed before still opens it: it is written first.
 */
export async function inviteOrRenew(
  auth: AuthContext,
  input: NewInvitation,
  resend: boolean,
  mail: InvitationMailing,
): Promise<
  Outcome<
    { invitation: InvitationDoc; emailSent: boolean },
    "INVITATION_ALREADY_PENDING" | "INVITATION_LIMIT_REACHED"
  >
> {
  const { collections } = auth;
  const now = auth.now();
  const config = auth.options.organization;
  const expiresAt = new Date(now.getTime() + config.invitationExpiresIn * 1000);
  const slot = pendingInvitationSlot(input.organizationId.toHexString(), input.email);
  const existing = await findInvitationBySlot(collections, slot);
  try {
    if (existing && !isInvitationOpen(existing, now)) {
      await closeInvitationSlot(collections, existing._id, closedInvitationSlot(existing._id.toHexString()));
    } else if (existing && resend) {
      const fields = { expiresAt, role: input.role, teamId: input.teamId, inviterId: input.inviterId };
      const renewed = await renewInvitation(collections, existing._id, fields);
      if (renewed) return granted({ invitation: renewed, emailSent: await mail(renewed, async () => {}) });
    } else if (existing && config.cancelPendingInvitationsOnReInvite) {
      if (await claimInvitation(auth, existing)) await closeAs(auth, existing, "canceled");
    } else if (existing) return refused("INVITATION_ALREADY_PENDING");
    const count = () => countPendingInvitations(collections, input.organizationId, now);
    // Counted once before the mail, so that an organization at its limit queues no mail; the
    // insert's first count is this one (insertWithinLimit counts again after its insert).
    const counted = await count();
    if (counted >= config.invitationLimit) return refused("INVITATION_LIMIT_REACHED");
    const doc: InvitationDoc = {
      _id: new ObjectId(),
      ...input,
      status: "pending",
      expiresAt,
      createdAt: now,
      slot,
    };
    // invitationLimit under parallel invites: bounded-insert.ts. An undo that loses the claim to an
    // accept, reject or cancel of the fresh invitation ends the attempts (its fate is decided); so
    // does a parallel invite of the address taking the slot. Every attempt inserts the same id (an
    // undone one is deleted first), the one the mail links to.
    const stored = async () => {
      const inserted = await insertWithinLimit<InvitationDoc>(
        {
          count,
          insert: () => insertPendingInvitation(auth, doc),
          undo: async (value) => {
            if (!(await withdrawInvitation(auth, value))) throw new InviteStopped("INVITATION_LIMIT_REACHED");
          },
        },
        config.invitationLimit,
        counted,
      );
      if (!inserted) throw new InviteStopped("INVITATION_LIMIT_REACHED");
    };
    return granted({ invitation: doc, emailSent: await mail(doc, stored) });
  } catch (error) {
    if (error instanceof InviteStopped) return refused(error.code);
    throw error;
  }
}

/** Ends insertWithinLimit's attempts from inside a step; inviteOrRenew answers it as a refusal. */
class InviteStopped extends Error {
  constructor(readonly code: "INVITATION_ALREADY_PENDING" | "INVITATION_LIMIT_REACHED") {
    super(code);
  }
}

/** Inserts a pending invitation; its slot taken by a parallel invite of the address → already pending. */
async function insertPendingInvitation(auth: AuthContext, doc: InvitationDoc): Promise<InvitationDoc> {
  try {
    await insertInvitation(auth.collections, doc);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new InviteStopped("INVITATION_ALREADY_PENDING");
    throw error;
  }
  return doc;
}

/**
 * Takes back an invitation this request just inserted (limit re-count, organization deleted
 * meanwhile). Through the claim, so an accept that already saw it cannot win too: whoever inserts
 * the claim decides (an accept, reject or cancel that won keeps the invitation's fate: false).
 */
export async function withdrawInvitation(auth: AuthContext, invitation: InvitationDoc): Promise<boolean> {
  if (!(await claimInvitation(auth, invitation))) return false;
  await deleteInvitationById(auth.collections, invitation);
  await releaseClaim(auth, invitation);
  return true;
}

const CLAIM_LIFETIME_SECONDS = 86400;

const CLAIM_PREFIX = "invitation-claim:";

function claimIdentifier(invitation: InvitationDoc): string {
  return `${CLAIM_PREFIX}${invitation._id.toHexString()}`;
}

/**
 * The pending → accepted | rejected | canceled move as one atomic step: a unique claim
 * marker in `verifications`. Of any number of concurrent accepts, rejects and cancels exactly one
 * inserts it (a unique insert has one winner on every backend; FerretDB v1 lets several concurrent
 * compare-and-set updates or deletes "win"). Only the winner writes the final status. A claim whose
 * winner crashed before writing is finished or given back by auth.cleanup()
 * (finishInterruptedInvitationClaims), and at the latest expires after a day.
 */
export function claimInvitation(auth: AuthContext, invitation: InvitationDoc): Promise<boolean> {
  const now = auth.now();
  const expiresAt = new Date(now.getTime() + CLAIM_LIFETIME_SECONDS * 1000);
  return claimOneTimeToken(auth.collections, claimIdentifier(invitation), expiresAt, now);
}

/** Writes a claimed invitation's final state (its pending slot freed). */
export async function closeAs(
  auth: AuthContext,
  invitation: InvitationDoc,
  status: InvitationStatus,
): Promise<InvitationDoc> {
  const slot = closedInvitationSlot(invitation._id.toHexString());
  await setInvitationStatus(auth.collections, invitation, status, slot);
  return { ...invitation, status, slot };
}

/** Gives a claim back after the accept failed (limit): the invitation is pending and usable again. */
async function releaseClaim(auth: AuthContext, invitation: InvitationDoc): Promise<void> {
  await releaseOneTimeToken(auth.collections, claimIdentifier(invitation));
}

function invitationLink(auth: AuthContext, id: string): string {
  const template =
    auth.options.organization.invitationURL ?? `${new URL(auth.apiURL).origin}/accept-invitation/{id}`;
  return template.replaceAll("{id}", encodeURIComponent(id));
}

/**
 * Mails the invitation link, or hands it to the app's `sendInvitationEmail`, the invitation written
 * by `stored` after the mail's row (or before the hook is called). The mail limit counts
 * it as the organization's (features/mail-limit: no other organization can use up its allowance for
 * the address): false when the limit refused it and nothing was sent.
 */
export function sendInvitationMail(
  auth: AuthContext,
  invitation: InvitationDoc,
  organization: OrganizationDoc,
  inviter: UserDoc,
  /** The invitee's language when the address is a user's; else the mail goes in the `language` option. */
  language: string | undefined,
  /** Writes the invitation, after the mail's row and before its send (InvitationMailing). */
  stored: () => Promise<void>,
): Promise<boolean> {
  const id = invitation._id.toHexString();
  const url = invitationLink(auth, id);
  const hook = auth.options.organization.sendInvitationEmail;
  return dispatchMail(
    auth,
    "invitation",
    { email: invitation.email, language },
    {
      url,
      organizationName: organization.name,
      inviterName: inviter.name || inviter.email,
      role: invitation.role,
    },
    hook &&
      (() =>
        hook({
          id,
          email: invitation.email,
          role: invitation.role,
          url,
          organization: {
            id: organization._id.toHexString(),
            name: organization.name,
            slug: organization.slug,
          },
          inviter: toMailUser(inviter),
        })),
    {
      sender: { kind: "organization", id: organization._id },
      queue: {
        expiresAt: invitation.expiresAt,
        organizationId: organization._id,
        invitationId: invitation._id,
        linkStored: stored,
      },
    },
  );
}

/**
 * accept, reject and read only by the invited address (case-insensitive: both are stored
 * lower-cased), with a verified email unless configured otherwise, and only while
 * pending and unexpired. The recipient is checked first, so others learn nothing about its state.
 */
export async function loadInvitationForRecipient(
  auth: AuthContext,
  user: UserDoc,
  invitationId: string,
): Promise<
  Outcome<
    InvitationDoc,
    "INVITATION_NOT_FOUND" | "NOT_INVITATION_RECIPIENT" | "INVITATION_EMAIL_NOT_VERIFIED"
  >
> {
  const id = parseId(invitationId);
  const invitation = id ? await findInvitationById(auth.collections, id) : null;
  if (!invitation) return refused("INVITATION_NOT_FOUND");
  if (invitation.email !== user.email.toLowerCase()) return refused("NOT_INVITATION_RECIPIENT");
  if (auth.options.organization.requireEmailVerificationOnInvitation && !user.emailVerified)
    return refused("INVITATION_EMAIL_NOT_VERIFIED");
  if (!isInvitationOpen(invitation, auth.now())) return refused("INVITATION_NOT_FOUND");
  return granted(invitation);
}

/**
 * The inviter must still be a member allowed to invite this role (`invitation:create` and a role they
 * could grant): an admin removed or demoted after inviting no longer vouches for the invitation.
 * get-invitation, accept and reject answer alike (one indexed read). The inviter's row; null when
 * they no longer vouch for it (INVITER_NO_LONGER_MEMBER).
 */
export async function findInviterStillAllowed(
  auth: AuthContext,
  invitation: InvitationDoc,
): Promise<MemberDoc | null> {
  const inviter = await findMember(auth, invitation.organizationId, invitation.inviterId);
  const table = roleTableOf(auth);
  if (
    !inviter ||
    !hasPermission(inviter.role, { invitation: ["create"] }, table) ||
    !canGrantRoles(inviter.role, parseRoles(invitation.role), table, auth.options.organization.creatorRole)
  )
    return null;
  return inviter;
}

/**
 * Accepts: the claim picks exactly one winner among concurrent accepts, rejects and cancels. The
 * winner adds the member within the membership limit and the invitation's teams within theirs; when
 * either refuses, the member and the claim are taken back and the invitation stays pending. The
 * status is written last, so an accepted invitation never exists without its member.
 */
export async function acceptInvitation(
  auth: AuthContext,
  invitation: InvitationDoc,
  user: UserDoc,
): Promise<
  Outcome<
    { invitation: InvitationDoc; member: MemberDoc; teams: TeamDoc[] },
    | "INVITATION_NOT_FOUND"
    | "MEMBERSHIP_LIMIT_REACHED"
    | "MEMBER_ALREADY_EXISTS"
    | "TEAM_MEMBER_LIMIT_REACHED"
  >
> {
  const teamIds = (invitation.teamId ?? "")
    .split(",")
    .map((id) => parseId(id))
    .filter((id) => id !== null);
  const teams =
    teamIds.length > 0 ? await findOrganizationTeams(auth, invitation.organizationId, teamIds) : [];
  if (!(await claimInvitation(auth, invitation))) return refused("INVITATION_NOT_FOUND");
  const added = await addMemberWithinLimit(auth, {
    organizationId: invitation.organizationId,
    userId: user._id,
    role: invitation.role,
    teamId: teams[0]?._id ?? null,
  });
  if (!added.ok) {
    await releaseClaim(auth, invitation);
    return refused(added.reason === "limit" ? "MEMBERSHIP_LIMIT_REACHED" : "MEMBER_ALREADY_EXISTS");
  }
  if (!(await joinTeams(auth, teams, user._id))) {
    await deleteMember(auth, added.value);
    await releaseClaim(auth, invitation);
    return refused("TEAM_MEMBER_LIMIT_REACHED");
  }
  return granted({ invitation: await closeAs(auth, invitation, "accepted"), member: added.value, teams });
}

/** A claim older than this whose invitation is still pending belongs to a request that died. */
const CLAIM_ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * For `auth.cleanup()` (docs/scale.md "Crash in the middle"). An accept cut by a crash after its
 * member insert leaves the member and a claimed invitation still pending — a retry is refused (the
 * claim is taken), so the cleanup finishes it: a claimed, pending invitation whose invitee became a
 * member of its organization after the claim is closed as accepted, as the accept would have
 * (`accepted`). The claim's own time tells this member from one who was there before (a reject or
 * cancel in flight: left alone); an accept still in flight writes the same status. An accept,
 * reject or cancel cut before it wrote anything else leaves only its claim: once the claim is older
 * than any request lives (10 minutes; the request deadline is 30 s), it is given back and the
 * invitation can be answered again (`reopened`) — not a day later, when the claim would expire.
 */
export async function finishInterruptedInvitationClaims(
  auth: AuthContext,
): Promise<{ accepted: number; reopened: number }> {
  const done = { accepted: 0, reopened: 0 };
  const abandonedBefore = auth.now().getTime() - CLAIM_ABANDONED_AFTER_MS;
  for (const claim of await findOneTimeTokens(auth.collections, CLAIM_PREFIX)) {
    const invitation = await findInvitation(auth, claim.identifier.slice(CLAIM_PREFIX.length));
    if (invitation?.status !== "pending") continue;
    const invitee = await findUserByEmail(auth.collections, invitation.email);
    const member = invitee && (await findMember(auth, invitation.organizationId, invitee._id));
    if (member && member.createdAt >= claim.createdAt) {
      await closeAs(auth, invitation, "accepted");
      done.accepted++;
    } else if (claim.createdAt.getTime() < abandonedBefore) {
      await releaseClaim(auth, invitation);
      done.reopened++;
    }
  }
  return done;
}

/** An invitation by id (a string that is not one is not found); null when there is none. */
export async function findInvitation(auth: AuthContext, invitationId: string): Promise<InvitationDoc | null> {
  const id = parseId(invitationId);
  return id ? findInvitationById(auth.collections, id) : null;
}

/** The organization's invitations (every status), newest first, one page. */
export function listInvitationsOf(
  auth: AuthContext,
  organizationId: ObjectId,
  limit: number,
  offset = 0,
): Promise<InvitationDoc[]> {
  return listOrganizationInvitations(auth.collections, organizationId, limit, offset);
}

/** listInvitationsOf's first page, its documents left as BSON (db/raw-page.ts). */
export function listInvitationsRawOf(
  auth: AuthContext,
  organizationId: ObjectId,
  limit: number,
): Promise<RawPage<InvitationDoc>> {
  return listOrganizationInvitationsRaw(auth.collections, organizationId, limit);
}

/** The pending, unexpired invitations of an address, newest first, at most `limit`. */
export function listOpenInvitationsOf(
  auth: AuthContext,
  email: string,
  limit: number,
): Promise<InvitationDoc[]> {
  return listPendingInvitationsByEmail(auth.collections, email, auth.now(), limit);
}

/** The organization's invitations go with it (its delete cascade). */
export function deleteInvitationsOf(auth: AuthContext, organizationId: ObjectId): Promise<void> {
  return deleteOrganizationInvitations(auth.collections, organizationId);
}

/** The pending invitations the user sent in these organizations (deleting the user); how many went. */
export function deletePendingInvitationsSentBy(
  auth: AuthContext,
  inviterId: ObjectId,
  organizationIds: readonly ObjectId[],
): Promise<number> {
  return deleteInviterPendingInvitations(auth.collections, organizationIds, inviterId);
}

/** Cleanup: pending invitations expired at or before `shownUntil`; how many went. */
export function deleteStaleInvitations(auth: AuthContext, shownUntil: Date): Promise<number> {
  return deleteStalePendingInvitations(auth.collections, shownUntil);
}

/** The organization's pending invitations, expired or not (an operator's count). */
export function countPendingInvitationsOf(auth: AuthContext, organizationId: ObjectId): Promise<number> {
  return countPendingInvitations(auth.collections, organizationId, null);
}
