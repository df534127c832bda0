import type * as Account from "../contracts/account.ts";
import type * as Admin from "../contracts/admin.ts";
import type * as ApiKey from "../contracts/api-key.ts";
import type * as Deletion from "../contracts/deletion.ts";
import type * as EmailPassword from "../contracts/email-password.ts";
import type { SessionAndUser } from "../contracts/models.ts";
import type * as Organization from "../contracts/organization.ts";
import type * as Invitations from "../contracts/organization-invitations.ts";
import type * as Members from "../contracts/organization-members.ts";
import type {
  FullOrganization,
  MemberWithUser,
  Organization as OrganizationRow,
} from "../contracts/organization-models.ts";
import type * as Teams from "../contracts/organization-teams.ts";
import type * as Password from "../contracts/password.ts";
import type * as Session from "../contracts/session.ts";
import type * as Social from "../contracts/social.ts";
import type * as TwoFactor from "../contracts/two-factor.ts";
import type * as UserExport from "../contracts/user-export.ts";
import type * as Verification from "../contracts/verification.ts";
import type { AuthStore, GetCall, PostCall } from "./types.ts";

/**
 * The client's methods, one per endpoint a browser may call, typed from the contracts (routes.ts
 * holds their methods and paths). Written out as named interfaces so editors read them, not infer them.
 */
export interface AuthClientApi {
  signUp: { email: PostCall<typeof EmailPassword.signUpEmailContract> };
  signIn: {
    email: PostCall<typeof EmailPassword.signInEmailContract>;
    social: PostCall<typeof Social.signInSocialContract>;
  };
  signOut: PostCall<typeof Session.signOutContract>;
  getSession: GetCall<typeof Session.getSessionContract>;
  listSessions: GetCall<typeof Session.listSessionsContract>;
  revokeSession: PostCall<typeof Session.revokeSessionContract>;
  revokeSessions: PostCall<typeof Session.revokeSessionsContract>;
  revokeOtherSessions: PostCall<typeof Session.revokeOtherSessionsContract>;
  updateUser: PostCall<typeof Account.updateUserContract>;
  changeEmail: PostCall<typeof Account.changeEmailContract>;
  changePassword: PostCall<typeof Password.changePasswordContract>;
  deleteUser: PostCall<typeof Deletion.deleteUserContract>;
  deleteUserCallback: GetCall<typeof Deletion.deleteUserCallbackContract>;
  exportUserData: GetCall<typeof UserExport.exportUserDataContract>;
  sendVerificationEmail: PostCall<typeof Verification.sendVerificationEmailContract>;
  verifyEmail: GetCall<typeof Verification.verifyEmailContract>;
  requestPasswordReset: PostCall<typeof Password.requestPasswordResetContract>;
  forgetPassword: PostCall<typeof Password.forgetPasswordContract>;
  resetPassword: PostCall<typeof Password.resetPasswordContract>;
  linkSocial: PostCall<typeof Social.linkSocialAccountContract>;
  unlinkAccount: PostCall<typeof Social.unlinkAccountContract>;
  listAccounts: GetCall<typeof Social.listUserAccountsContract>;
  getAccessToken: PostCall<typeof Social.getAccessTokenContract>;
  refreshToken: PostCall<typeof Social.refreshTokenContract>;
  accountInfo: PostCall<typeof Social.accountInfoContract>;
  organization: OrganizationMethods;
  admin: AdminMethods;
  twoFactor: TwoFactorMethods;
  apiKey: ApiKeyMethods;
}

export interface OrganizationMethods {
  create: PostCall<typeof Organization.createOrganizationContract>;
  checkSlug: PostCall<typeof Organization.checkOrganizationSlugContract>;
  list: GetCall<typeof Organization.listOrganizationsContract>;
  getFullOrganization: GetCall<typeof Organization.getFullOrganizationContract>;
  setActive: PostCall<typeof Organization.setActiveOrganizationContract>;
  update: PostCall<typeof Organization.updateOrganizationContract>;
  delete: PostCall<typeof Organization.deleteOrganizationContract>;
  hasPermission: PostCall<typeof Organization.hasPermissionContract>;
  inviteMember: PostCall<typeof Invitations.createInvitationContract>;
  acceptInvitation: PostCall<typeof Invitations.acceptInvitationContract>;
  rejectInvitation: PostCall<typeof Invitations.rejectInvitationContract>;
  cancelInvitation: PostCall<typeof Invitations.cancelInvitationContract>;
  getInvitation: GetCall<typeof Invitations.getInvitationContract>;
  listInvitations: GetCall<typeof Invitations.listInvitationsContract>;
  listUserInvitations: GetCall<typeof Invitations.listUserInvitationsContract>;
  removeMember: PostCall<typeof Members.removeMemberContract>;
  updateMemberRole: PostCall<typeof Members.updateMemberRoleContract>;
  getActiveMember: GetCall<typeof Members.getActiveMemberContract>;
  getActiveMemberRole: GetCall<typeof Members.getActiveMemberRoleContract>;
  listMembers: GetCall<typeof Members.listMembersContract>;
  leave: PostCall<typeof Members.leaveOrganizationContract>;
  createTeam: PostCall<typeof Teams.createTeamContract>;
  updateTeam: PostCall<typeof Teams.updateTeamContract>;
  removeTeam: PostCall<typeof Teams.removeTeamContract>;
  listTeams: GetCall<typeof Teams.listOrganizationTeamsContract>;
  setActiveTeam: PostCall<typeof Teams.setActiveTeamContract>;
  addTeamMember: PostCall<typeof Teams.addTeamMemberContract>;
  removeTeamMember: PostCall<typeof Teams.removeTeamMemberContract>;
  listTeamMembers: GetCall<typeof Teams.listTeamMembersContract>;
}

export interface AdminMethods {
  listUsers: GetCall<typeof Admin.listUsersContract>;
  getUser: GetCall<typeof Admin.getUserContract>;
  createUser: PostCall<typeof Admin.createUserContract>;
  updateUser: PostCall<typeof Admin.adminUpdateUserContract>;
  setRole: PostCall<typeof Admin.setRoleContract>;
  banUser: PostCall<typeof Admin.banUserContract>;
  unbanUser: PostCall<typeof Admin.unbanUserContract>;
  impersonateUser: PostCall<typeof Admin.impersonateUserContract>;
  stopImpersonating: PostCall<typeof Admin.stopImpersonatingContract>;
  listUserSessions: PostCall<typeof Admin.listUserSessionsContract>;
  revokeUserSession: PostCall<typeof Admin.revokeUserSessionContract>;
  revokeUserSessions: PostCall<typeof Admin.revokeUserSessionsContract>;
  removeUser: PostCall<typeof Admin.removeUserContract>;
  setUserPassword: PostCall<typeof Admin.setUserPasswordContract>;
  hasPermission: PostCall<typeof Admin.userHasPermissionContract>;
  listAuditEvents: GetCall<typeof Admin.listAuditEventsContract>;
}

export interface TwoFactorMethods {
  enable: PostCall<typeof TwoFactor.enableTwoFactorContract>;
  getTotpUri: PostCall<typeof TwoFactor.getTotpUriContract>;
  verifyTotp: PostCall<typeof TwoFactor.verifyTotpContract>;
  sendOtp: PostCall<typeof TwoFactor.sendTwoFactorOtpContract>;
  verifyOtp: PostCall<typeof TwoFactor.verifyTwoFactorOtpContract>;
  generateBackupCodes: PostCall<typeof TwoFactor.generateBackupCodesContract>;
  verifyBackupCode: PostCall<typeof TwoFactor.verifyBackupCodeContract>;
  disable: PostCall<typeof TwoFactor.disableTwoFactorContract>;
}

export interface ApiKeyMethods {
  create: PostCall<typeof ApiKey.createApiKeyContract>;
  get: GetCall<typeof ApiKey.getApiKeyContract>;
  list: GetCall<typeof ApiKey.listApiKeysContract>;
  update: PostCall<typeof ApiKey.updateApiKeyContract>;
  delete: PostCall<typeof ApiKey.deleteApiKeyContract>;
}

/** The values the client keeps in step with the server, for subscribers and the React hooks. */
export interface AuthClientStores {
  session: AuthStore<SessionAndUser>;
  /** The active organization in full (`getFullOrganization`), null when none is active. */
  activeOrganization: AuthStore<FullOrganization>;
  /** The caller's organizations (`organization.list`). */
  organizations: AuthStore<OrganizationRow[]>;
  /** The caller's member row in the active organization. */
  activeMember: AuthStore<MemberWithUser>;
}

export interface AuthClient extends AuthClientApi {
  /** Stores: `client.$store.session.subscribe(…)`; the React hooks read these. */
  $store: AuthClientStores;
}
