/** The face of users for other features (users has no endpoints of its own). */

export { checkAccountPassword, type PasswordCheckResult } from "./service.ts";
export { findUserByEmail } from "./store.ts";
