/** The face of users for other features (users has no endpoints of its own). */

/**
 * Storage operations other features run on users, their address claims and their timeline (owned by
 * store.ts, claims-store.ts and timeline-store.ts: a user write in store.ts also writes the claim and
 * the entry that follow it; repairs.ts checks them against the users) and on the credential account
 * (db/accounts.ts).
 */
export {
  accountIdOf,
  deleteAdminChosenPassword,
  deleteCredentialAccount,
  deleteProviderAccounts,
  findCredentialAccount,
  insertAccountsInBulk,
  updateAccountFieldsReturning,
} from "../../db/accounts.ts";
export { checkUserNotBanned, isBanActive, LIFTED_BAN } from "./ban.ts";
/** For endpoints of other features: users' refusals as catalogue errors. */
export { assertPasswordAllowed, assertUserPassword, bannedUserError } from "./endpoints/guards.ts";
export { userDeletedEvent } from "./events.ts";
export {
  findUsersByEmailPrefix,
  findUsersPageByTimeline,
  type UsersPage,
} from "./listing.ts";
export {
  type EmailClaimGaps,
  enterEveryUser,
  findTimelineGaps,
  reconcileUserTimeline,
  repairEmailClaims,
  repairUserTimeline,
} from "./repairs.ts";
export {
  createCredentialAccount,
  createUser,
  createUserAlone,
  createUserWithPassword,
  proveUserPassword,
  updateCredentialPassword,
  updateUser,
} from "./service.ts";
export {
  countUsers,
  countUsersByStoredRole,
  deleteUserById,
  deleteUserRow,
  findMemberUsers,
  findMemberUsersRaw,
  findSignUpDatesSince,
  findUserByEmail,
  findUserById,
  findUsersPage,
  insertUsersInBulk,
  type UserWriter,
  updateUserMovingAddress,
  userEventSource,
  userRowsForChecks,
} from "./store.ts";
