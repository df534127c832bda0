/** The face of users for other features (users has no endpoints of its own). */
export { checkUserNotBanned, isBanActive, isBanExpired, LIFTED_BAN } from "./ban.ts";
/** For endpoints of other features: users' refusals as catalogue errors. */
export { assertPasswordAllowed, bannedUserError } from "./endpoints/guards.ts";
export { checkPasswordAllowed } from "./password-policy.ts";
export {
  checkAccountPassword,
  createCredentialAccount,
  createUser,
  createUserAlone,
  createUserWithPassword,
  type PasswordCheckResult,
  updateCredentialPassword,
  updateUser,
} from "./service.ts";
/** Storage operations other features run on users and their credential account. */
export {
  accountIdOf,
  claimEmail,
  deleteAdminChosenPassword,
  deleteUserById,
  findCredentialAccount,
  findUserByEmail,
  insertAccount,
  insertAccountsInBulk,
  insertUsersInBulk,
  reconcileUserTimeline,
  releaseEmail,
  removeFromTimeline,
  repairEmailClaim,
  updateAccountFieldsReturning,
} from "./store.ts";
