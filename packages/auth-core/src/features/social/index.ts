/** The face of social: what other features may use. */
export { dropUnprovenProviderAccounts } from "./unproven-accounts.ts";
