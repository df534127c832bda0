/** The face of users for other features (users has no endpoints of its own). */
export {
  assertUserNotBanned,
  bannedUserError,
  isBanActive,
  isBanExpired,
  LIFTED_BAN,
} from "./ban.ts";
export { assertPasswordAllowed } from "./password-policy.ts";
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
  deleteAdminChosenPassword,
  findCredentialAccount,
  findUserByEmail,
  updateAccountFieldsReturning,
} from "./store.ts";
