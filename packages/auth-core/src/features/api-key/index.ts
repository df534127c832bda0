/** The face of api-key: what other features and create-auth.ts may use (endpoints: endpoints/, registered by features/registry.ts). */
export { deleteUserApiKeyData, revokeSessionMintedKeys } from "./service.ts";
/** Whether a caller is an API key rather than a session; create-auth.ts hands the others to http/. */
export { assertApiKeyCallerAllowed, isApiKeySession, readApiKeySession } from "./session-bridge.ts";
/**
 * For `auth.cleanup()` (features/cleanup.ts), the user's data export (features/user-export) and
 * `tessera doctor` (operator-checks.ts).
 */
export {
  apiKeyEventSource,
  apiKeyRowsForChecks,
  deleteExpiredApiKeys,
  deleteExpiredKeyUses,
  findUserApiKeys,
} from "./store.ts";
