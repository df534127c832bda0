/** The face of passkey: what other features, create-auth.ts and operator.ts may use (endpoints: endpoints/, registered by features/registry.ts). */
export {
  deletePasskeyOfUser,
  deleteUserPasskeyData,
  listUserPasskeys,
  removeUnprovenPasskeys,
} from "./management.ts";
/** An organization's authenticator policy judges the user's passkeys through these (features/organization). */
export { listPasskeyFacts } from "./policy-facts.ts";
/** `tessera doctor` finds and deletes the passkeys of users that no longer exist (operator-checks.ts). */
export { passkeyEventSource, passkeyRowsForChecks } from "./store.ts";
