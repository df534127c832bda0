import type { AuthContext } from "../../context.ts";
import type { UserExport } from "../../contracts/user-export.ts";
import type { UserDoc } from "../../db/documents.ts";
import { findUserMemberships } from "../organization/index.ts";
import { listUserPasskeys } from "../passkey/index.ts";
import { listUserSessions } from "../session/index.ts";
import { listUserAccounts } from "../social/index.ts";
import { findUserByEmail } from "../users/index.ts";
import {
  toExportedAccount,
  toExportedApiKey,
  toExportedAuditEvent,
  toExportedPasskey,
  toExportedSessions,
  toExportedUser,
} from "./rules.ts";
import { findOrganizationNames, findStoredUserRows } from "./user-rows.ts";

/**
 * Everything held about `user`, for the user themselves (GET /export-user-data) and for an operator
 * answering their request (`tessera export --user`): one function, so both give the same data and
 * leave out the same secrets and staff details (rules.ts). Sessions, accounts, passkeys and memberships are
 * read through their owners' faces, the other rows in user-rows.ts.
 */
export async function exportUserData(auth: AuthContext, user: UserDoc): Promise<UserExport> {
  const now = auth.now();
  const [sessions, accounts, passkeys, members, rows] = await Promise.all([
    listUserSessions(auth.collections, user._id, now),
    listUserAccounts(auth, user._id),
    listUserPasskeys(auth, user._id),
    findUserMemberships(auth, user._id),
    findStoredUserRows(auth.collections, user),
  ]);
  const organizations = await findOrganizationNames(auth.collections, [
    ...members.map((member) => member.organizationId),
    ...rows.invitationsReceived.map((invitation) => invitation.organizationId),
  ]);
  const nameOf = (id: UserDoc["_id"]) => organizations.get(id.toHexString()) ?? null;
  return {
    exportedAt: now,
    user: toExportedUser(user, auth.options.admin.defaultRole),
    accounts: accounts.map(toExportedAccount),
    passkeys: passkeys.map(toExportedPasskey),
    sessions: toExportedSessions(sessions),
    memberships: members.map((member) => ({
      id: member._id.toHexString(),
      organizationId: member.organizationId.toHexString(),
      role: member.role,
      createdAt: member.createdAt,
      organization: nameOf(member.organizationId),
    })),
    teamMemberships: rows.teamMembers.map((row) => ({
      id: row._id.toHexString(),
      teamId: row.teamId.toHexString(),
      organizationId: row.organizationId.toHexString(),
      createdAt: row.createdAt,
    })),
    invitationsReceived: rows.invitationsReceived.map((invitation) => ({
      id: invitation._id.toHexString(),
      organizationId: invitation.organizationId.toHexString(),
      role: invitation.role,
      status: invitation.status,
      expiresAt: invitation.expiresAt,
      createdAt: invitation.createdAt,
      organization: nameOf(invitation.organizationId),
    })),
    invitationsSent: rows.invitationsSent.map((invitation) => ({
      id: invitation._id.toHexString(),
      organizationId: invitation.organizationId.toHexString(),
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      createdAt: invitation.createdAt,
    })),
    apiKeys: rows.apiKeys.map(toExportedApiKey),
    twoFactor: rows.twoFactor
      ? {
          enabled: user.twoFactorEnabled === true,
          verified: rows.twoFactor.verified,
          createdAt: rows.twoFactor.createdAt,
        }
      : null,
    auditEvents: rows.auditEvents.map((event) => toExportedAuditEvent(event, user._id)),
  };
}

/** The export of the user holding `email` (trimmed, lower-cased), or null when nobody does. */
export async function exportUserDataByEmail(auth: AuthContext, email: string): Promise<UserExport | null> {
  const user = await findUserByEmail(auth.collections, email.trim().toLowerCase());
  return user ? exportUserData(auth, user) : null;
}
