/** Pure decisions of account deletion. */

import { sha256Base64Url } from "../../crypto/random.ts";
import type { MemberDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { holdsRole, parseRoles } from "../organization/index.ts";

/**
 * delete-account tokens live in `verifications` under `delete-account-{…}` — with the
 * token's SHA-256 in place of the token, as reset tokens (docs/security.md).
 */
export function deleteAccountIdentifier(token: string): string {
  return `delete-account-${sha256Base64Url(token)}`;
}

/**
 * Every verification identifier whose value is a user id (`reset-password:{token}` and
 * `delete-account-{token}`); a deleted user's pending tokens of these kinds are removed with them.
 */
export const USER_TOKEN_IDENTIFIER = /^(?:delete-account-|reset-password:)/;

/**
 * What POST /delete-user does once the password (when given) has been checked:
 * - "consume-token": a mailed token was given — it proves the mailbox, like the callback link;
 * - "send-email": the app confirms deletions by email (even when a correct password was given:
 *   the password is one more check, never a way around the confirmation the app asked for);
 * - "delete": a correct password re-authenticated the caller;
 * - "require-fresh-session": nothing else proves the caller is the user, so the session must be
 *   fresh.
 */
export type DeletePath = "consume-token" | "send-email" | "delete" | "require-fresh-session";

export function chooseDeletePath(input: {
  hasToken: boolean;
  hasPassword: boolean;
  sendsVerificationEmail: boolean;
}): DeletePath {
  if (input.hasToken) return "consume-token";
  if (input.sendsVerificationEmail) return "send-email";
  if (input.hasPassword) return "delete";
  return "require-fresh-session";
}

/**
 * The callback URL with `error=<code>` added ("Error redirect targets take an error query
 * parameter"). Relative paths stay relative; an existing query and fragment are kept.
 */
export function appendErrorParam(callbackURL: string, code: string): string {
  const isRelative = callbackURL.startsWith("/");
  const url = new URL(callbackURL, "http://relative.invalid");
  url.searchParams.set("error", code);
  return isRelative ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}

/**
 * What deleting a user does to each organization they are in (docs/security.md):
 * - `deleteOrganizations`: they hold the creator role and nobody else is a member — the
 *   organization goes with them;
 * - `demote`: their member rows holding the creator role where another owner remains — the role is
 *   dropped under the sole-owner guard before anything is deleted;
 * - `blockedBy`: they are the only owner and others are members — the deletion is refused;
 * - `leave`: every organization that stays (their member rows, team memberships and pending
 *   invitations there are removed).
 */
export interface OrganizationRelease {
  deleteOrganizations: ObjectId[];
  demote: MemberDoc[];
  blockedBy: ObjectId[];
  leave: ObjectId[];
}

export function planOrganizationRelease(
  memberships: readonly MemberDoc[],
  creatorRole: string,
  others: { withMembers: readonly ObjectId[]; withOwners: readonly ObjectId[] },
): OrganizationRelease {
  const withMembers = new Set(others.withMembers.map((id) => id.toHexString()));
  const withOwners = new Set(others.withOwners.map((id) => id.toHexString()));
  const plan: OrganizationRelease = { deleteOrganizations: [], demote: [], blockedBy: [], leave: [] };
  for (const member of memberships) {
    const id = member.organizationId;
    const key = id.toHexString();
    if (!holdsRole(member.role, creatorRole)) plan.leave.push(id);
    else if (!withMembers.has(key)) plan.deleteOrganizations.push(id);
    else if (withOwners.has(key)) {
      plan.demote.push(member);
      plan.leave.push(id);
    } else plan.blockedBy.push(id);
  }
  return plan;
}

/** The member's roles without the creator role; "member" when none is left. */
export function roleWithout(role: string, creatorRole: string): string {
  return (
    parseRoles(role)
      .filter((entry) => entry !== creatorRole)
      .join(",") || "member"
  );
}
