/** What the rest of features/sso uses of SAML: /sign-in/sso starts a SAML connection's sign-in here. */
export { createSamlSignInURL } from "./service.ts";
