export { auditListAction } from "./commands/audit.ts";
export { cleanupAction } from "./commands/cleanup.ts";
export { type CreateResult, createAction } from "./commands/create.ts";
export { dbStartAction } from "./commands/db.ts";
export { type DoctorResult, doctorAction } from "./commands/doctor.ts";
export { eventsListAction } from "./commands/events.ts";
export { exportAction, type UserExport } from "./commands/export.ts";
export { importAction } from "./commands/import.ts";
export {
  exitCodeOf as invitationsExitCode,
  type InvitationRow,
  type InvitationsSendResult,
  invitationsSendAction,
} from "./commands/invitations.ts";
export { mailQueueAction, mailRetryAction } from "./commands/mail.ts";
export { migrateStatusAction, migrateUpAction } from "./commands/migrate.ts";
export {
  orgsAddMemberAction,
  orgsDeleteAction,
  orgsListAction,
  orgsRemoveMemberAction,
  orgsSetRoleAction,
  orgsShowAction,
} from "./commands/orgs.ts";
export {
  orgsDomainsAddAction,
  orgsDomainsListAction,
  orgsDomainsRemoveAction,
  orgsDomainsVerifyAction,
} from "./commands/orgs-domains.ts";
export { orgsScimAddAction, orgsScimListAction, orgsScimRemoveAction } from "./commands/orgs-scim.ts";
export {
  orgsSsoAddAction,
  orgsSsoListAction,
  orgsSsoRemoveAction,
  orgsSsoSetEnabledAction,
  orgsSsoTestAction,
} from "./commands/orgs-sso.ts";
export {
  orgsTeamsAddAction,
  orgsTeamsAddMemberAction,
  orgsTeamsListAction,
  orgsTeamsMembersAction,
  orgsTeamsRemoveAction,
  orgsTeamsRemoveMemberAction,
  orgsTeamsSetRoleAction,
} from "./commands/orgs-teams.ts";
export { secretAction } from "./commands/secret.ts";
export { sessionsListAction, sessionsRevokeAction } from "./commands/sessions.ts";
export {
  usersBanAction,
  usersCreateAction,
  usersGetAction,
  usersListAction,
  usersRemoveAction,
  usersRevokeSessionsAction,
  usersSetPasswordAction,
  usersSetRoleAction,
  usersUnbanAction,
} from "./commands/users.ts";
export { usersPasskeysAction, usersRemovePasskeyAction } from "./commands/users-passkeys.ts";
export {
  webhooksAddAction,
  webhooksListAction,
  webhooksRemoveAction,
  webhooksReplayAction,
  webhooksTestAction,
} from "./commands/webhooks.ts";
export { CliError, EXIT } from "./errors.ts";
export { type ImportReport, importFrom } from "./importers.ts";
export { type InitResult, initAction } from "./init-app.ts";
export { checkDataInvariants, type Finding, type InvariantOptions } from "./invariants.ts";
export type { Io } from "./io.ts";
export type { RunContext } from "./kit.ts";
export { main } from "./main.ts";
export { createProgram } from "./program.ts";
