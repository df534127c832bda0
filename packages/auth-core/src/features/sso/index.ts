/**
 * The face of sso (docs/security.md "Single sign-on"): what other features and create-auth.ts may
 * use (endpoints: endpoints/, registered by features/registry.ts). features/sso/saml uses the
 * connection store through service.ts and store.ts inside this feature.
 */

/** operator-sso.ts (`tessera orgs sso`): the endpoints' own paths, with the operator as manager. */
export {
  registerManagedConnection,
  removeManagedConnection,
  testManagedConnection,
  updateManagedConnection,
} from "./manage.ts";
/** auth.cleanup(): the SAML replay cache's rows whose assertions have expired (features/sso/saml). */
export { deleteExpiredSamlReplays } from "./saml/replay-store.ts";
export { listManagedProviders, toSsoProvider } from "./service.ts";
/** createAuth hands it to sso-domains (AuthContext.hasSsoConnection): require SSO needs a way in. */
export { hasEnabledSsoProvider } from "./store.ts";
export { createVerifierCache } from "./verifier-cache.ts";
