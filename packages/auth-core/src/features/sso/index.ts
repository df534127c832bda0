/**
 * The face of sso (docs/security.md "Single sign-on"): what other features and create-auth.ts may
 * use (endpoints: endpoints/, registered by features/registry.ts). features/sso/saml uses the
 * connection store through service.ts and store.ts inside this feature.
 */

/** auth.cleanup(): the SAML replay cache's rows whose assertions have expired (features/sso/saml). */
export { deleteExpiredSamlReplays } from "./saml/replay-store.ts";
export { createVerifierCache } from "./verifier-cache.ts";
