import { z } from "zod";
import { defineContract } from "./contract.ts";

/*
 * The SAML service provider's two endpoints (features/sso/saml), with the paths and fields of
 * Better Auth's SSO plugin. Sign-in starts at /sign-in/sso (contracts/sso.ts), which answers the
 * IdP's URL carrying our AuthnRequest.
 */

const providerIdField = z.string().min(1).max(128);

export const spMetadataContract = defineContract({
  name: "spMetadata",
  method: "GET",
  path: "/sso/saml2/sp/metadata",
  auth: "none",
  query: z.object({ providerId: providerIdField }),
  response: z.string(),
  answers: "xml",
  errors: ["SSO_PROVIDER_NOT_FOUND"],
  summary: "The SAML service provider metadata of a connection, for its IdP: entity ID and ACS URL.",
  client: false,
  tags: ["sso"],
});

export const samlAcsContract = defineContract({
  name: "samlAcs",
  method: "POST",
  path: "/sso/saml2/sp/acs/:providerId",
  auth: "none",
  setsSessionCookies: true,
  // The IdP's page posts this form (SAML bindings §3.5, HTTP-POST).
  body: z.object({
    SAMLResponse: z.string().min(1),
    RelayState: z.string().max(2048).optional(),
  }),
  // Always a redirect on success: to the callbackURL of the sign-in it answers (an IdP-initiated
  // one: its RelayState, a path of this app), signed in.
  response: z.never(),
  answers: "json-or-redirect",
  errors: [
    "SSO_PROVIDER_NOT_FOUND",
    "SSO_PROVIDER_DISABLED",
    "SAML_CONFIG_INCOMPLETE",
    "INVALID_SAML_RESPONSE",
    "SAML_XML_NOT_ALLOWED",
    "SAML_ALGORITHM_NOT_ALLOWED",
    "SAML_RESPONSE_EXPIRED",
    "SAML_WRONG_RECIPIENT",
    "SAML_WRONG_ISSUER",
    "SAML_REQUEST_UNKNOWN",
    "SAML_IDP_INITIATED_NOT_ALLOWED",
    "SAML_ASSERTION_REPLAYED",
    "INVALID_REDIRECT_URL",
    // The just-in-time sign-in's refusals (features/sso/jit.ts), as for OIDC.
    "SSO_EMAIL_MISSING",
    "SSO_ACCOUNT_NOT_LINKABLE",
    "UNABLE_TO_CREATE_USER",
    "MEMBERSHIP_LIMIT_REACHED",
    "BANNED_USER",
  ],
  summary: "The SAML Assertion Consumer Service: verifies the IdP's response and signs the user in.",
  notes: "Posted by the browser from the identity provider's page (HTTP-POST binding).",
  client: false,
  tags: ["sso"],
});
