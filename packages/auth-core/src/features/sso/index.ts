/**
 * The face of sso (docs/security.md "Single sign-on"): what other features and create-auth.ts may
 * use (endpoints: endpoints/, registered by features/registry.ts). features/sso/saml uses the
 * connection store through service.ts and store.ts inside this feature.
 */
export { createVerifierCache } from "./verifier-cache.ts";
