/**
 * The client's methods as data: each leaf is the endpoint's method (first letter, G or P) and path,
 * as its contract declares them. Kept as strings rather than imported contracts so that the browser
 * bundle carries no zod; tests/client/routes.test.ts checks every leaf against the contract registry
 * and that every endpoint a browser may call has a method. The types are in api.ts.
 */
export const ROUTES = {
  signUp: { email: "P/sign-up/email" },
  signIn: { email: "P/sign-in/email", social: "P/sign-in/social" },
  signOut: "P/sign-out",
  getSession: "G/get-session",
  listSessions: "G/list-sessions",
  revokeSession: "P/revoke-session",
  revokeSessions: "P/revoke-sessions",
  revokeOtherSessions: "P/revoke-other-sessions",
  updateUser: "P/update-user",
  changeEmail: "P/change-email",
  changePassword: "P/change-password",
  deleteUser: "P/delete-user",
  deleteUserCallback: "G/delete-user/callback",
  exportUserData: "G/export-user-data",
  sendVerificationEmail: "P/send-verification-email",
  verifyEmail: "G/verify-email",
  requestPasswordReset: "P/request-password-reset",
  forgetPassword: "P/forget-password",
  resetPassword: "P/reset-password",
  linkSocial: "P/link-social",
  unlinkAccount: "P/unlink-account",
  listAccounts: "G/list-accounts",
  getAccessToken: "P/get-access-token",
  refreshToken: "P/refresh-token",
  accountInfo: "P/account-info",
  organization: {
    create: "P/organization/create",
    checkSlug: "P/organization/check-slug",
    list: "G/organization/list",
    getFullOrganization: "G/organization/get-full-organization",
    setActive: "P/organization/set-active",
    update: "P/organization/update",
    delete: "P/organization/delete",
    hasPermission: "P/organization/has-permission",
    inviteMember: "P/organization/invite-member",
    acceptInvitation: "P/organization/accept-invitation",
    rejectInvitation: "P/organization/reject-invitation",
    cancelInvitation: "P/organization/cancel-invitation",
    getInvitation: "G/organization/get-invitation",
    listInvitations: "G/organization/list-invitations",
    listUserInvitations: "G/organization/list-user-invitations",
    removeMember: "P/organization/remove-member",
    updateMemberRole: "P/organization/update-member-role",
    getActiveMember: "G/organization/get-active-member",
    getActiveMemberRole: "G/organization/get-active-member-role",
    listMembers: "G/organization/list-members",
    leave: "P/organization/leave",
    createTeam: "P/organization/create-team",
    updateTeam: "P/organization/update-team",
    removeTeam: "P/organization/remove-team",
    listTeams: "G/organization/list-teams",
    setActiveTeam: "P/organization/set-active-team",
    addTeamMember: "P/organization/add-team-member",
    removeTeamMember: "P/organization/remove-team-member",
    listTeamMembers: "G/organization/list-team-members",
  },
  admin: {
    listUsers: "G/admin/list-users",
    getUser: "G/admin/get-user",
    createUser: "P/admin/create-user",
    updateUser: "P/admin/update-user",
    setRole: "P/admin/set-role",
    banUser: "P/admin/ban-user",
    unbanUser: "P/admin/unban-user",
    impersonateUser: "P/admin/impersonate-user",
    stopImpersonating: "P/admin/stop-impersonating",
    listUserSessions: "P/admin/list-user-sessions",
    revokeUserSession: "P/admin/revoke-user-session",
    revokeUserSessions: "P/admin/revoke-user-sessions",
    removeUser: "P/admin/remove-user",
    setUserPassword: "P/admin/set-user-password",
    hasPermission: "P/admin/has-permission",
    listAuditEvents: "G/admin/list-audit-events",
  },
  twoFactor: {
    enable: "P/two-factor/enable",
    getTotpUri: "P/two-factor/get-totp-uri",
    verifyTotp: "P/two-factor/verify-totp",
    sendOtp: "P/two-factor/send-otp",
    verifyOtp: "P/two-factor/verify-otp",
    generateBackupCodes: "P/two-factor/generate-backup-codes",
    verifyBackupCode: "P/two-factor/verify-backup-code",
    disable: "P/two-factor/disable",
  },
  apiKey: {
    create: "P/api-key/create",
    get: "G/api-key/get",
    list: "G/api-key/list",
    update: "P/api-key/update",
    delete: "P/api-key/delete",
  },
} as const;

/** A route table: leaves `"G/path"` or `"P/path"`, possibly nested one level. */
export interface RouteTable {
  [name: string]: string | RouteTable;
}

/**
 * Which stores a successful call makes stale (re-read 10 ms later, SPEC §7): the session after
 * every call that mints, ends or changes one (the two-factor paths, setting the active organization,
 * impersonation included); the organization stores after organization writes and session changes.
 * Reads change nothing, except the two mailed links a client may call (verify-email signs in,
 * delete-user/callback ends the user).
 */
export function staleStoresAfter(
  method: "GET" | "POST",
  path: string,
): { session: boolean; organizations: boolean } {
  if (method === "GET") {
    const changed = path === "/verify-email" || path === "/delete-user/callback";
    return { session: changed, organizations: changed };
  }
  const session =
    /^\/(sign-in|sign-up|two-factor)\/|^\/(sign-out|update-user|delete-user|change-email|change-password|revoke-sessions?|revoke-other-sessions)$|^\/organization\/(set-active|set-active-team|create|delete|leave|accept-invitation)$|^\/admin\/(impersonate-user|stop-impersonating)$/.test(
      path,
    );
  return { session, organizations: session || path.startsWith("/organization/") };
}
