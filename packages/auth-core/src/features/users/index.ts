/** The face of users for other features (users has no endpoints of its own). */

/**
 * Storage operations other features run on users, their address claims and their timeline (owned by
 * store.ts, claims-store.ts and timeline-store.ts: each write there also writes what follows it)
 * and on the credential account (db/accounts.ts).
 */
export {
  accountIdOf,
  deleteAdminChosenPassword,
  findCredentialAccount,
  insertAccountsInBulk,
  updateAccountFieldsReturning,
} from "../../db/accounts.ts";
export { checkUserNotBanned, isBanActive, LIFTED_BAN } from "./ban.ts";
export { type EmailClaimGaps, findUserByEmail, repairEmailClaims } from "./claims-store.ts";
/** For endpoints of other features: users' refusals as catalogue errors. */
export { assertPasswordAllowed, assertUserPassword, bannedUserError } from "./endpoints/guards.ts";
export {
  findUsersByEmailPrefix,
  findUsersPageByTimeline,
  type UsersPage,
} from "./listing.ts";
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
  findUserById,
  findUsersPage,
  insertUsersInBulk,
  type UserWriter,
  updateUserMovingAddress,
  userRowsForChecks,
} from "./store.ts";
export { findTimelineGaps, reconcileUserTimeline, repairUserTimeline } from "./timeline-store.ts";
