/** The face of social: what other features may use. */

/** Every account of a user, credential included (the admin area's user page); tokens are the caller's to drop. */
export { listUserAccounts } from "./service.ts";
export { dropUnprovenProviderAccounts } from "./unproven-accounts.ts";
