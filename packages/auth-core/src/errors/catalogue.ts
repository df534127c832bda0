/**
 * The error catalogue: every message of the error catalogue, verbatim, with its HTTP status.
 * The status lives here, never at the throw site, so one table test can check the whole
 * catalogue against the spec. Where docs/decisions/ gives no status for a client error, 400 (docs/decisions/).
 */
export const ERROR_CATALOGUE = {
  // Session and general
  FAILED_TO_CREATE_SESSION: { status: 500, message: "Failed to create session" },
  FAILED_TO_GET_SESSION: { status: 500, message: "Failed to get session" },
  SESSION_NOT_FOUND: { status: 400, message: "Session not found" },
  UNAUTHORIZED: { status: 401, message: "unauthorized" },
  SESSION_EXPIRED_REAUTHENTICATE: {
    status: 401,
    message: "Session expired. Re-authenticate to perform this action.",
  },
  SESSION_NOT_FRESH: { status: 403, message: "Session is not fresh" },
  // Not in a `hooks.session.update.before` hook refused a session write the caller asked
  // for (setting the active organization or team). 403 like DELETE_USER_REFUSED.
  SESSION_UPDATE_REFUSED: { status: 403, message: "Session update was refused" },
  INVALID_CALLBACK_URL: { status: 403, message: "Invalid callbackURL" },
  INVALID_REDIRECT_URL: { status: 403, message: "Invalid redirectURL" },
  INVALID_ERROR_CALLBACK_URL: { status: 403, message: "Invalid errorCallbackURL" },
  INVALID_NEW_USER_CALLBACK_URL: { status: 403, message: "Invalid newUserCallbackURL" },
  INVALID_ORIGIN: { status: 403, message: "Invalid origin" },
  UNABLE_TO_CREATE_VERIFICATION: { status: 500, message: "Unable to create verification" },
  VERIFICATION_EMAIL_NOT_ENABLED: { status: 400, message: "Verification email isn't enabled" },
  EMAIL_ALREADY_VERIFIED: {
    status: 400,
    message: "You can only send a verification email to an unverified email",
  },
  EMAIL_MISMATCH: { status: 400, message: "You can only send a verification email to your own email" },

  // Verify-email token errors (as JSON when there is no callbackURL)
  TOKEN_EXPIRED: { status: 401, message: "token_expired" },
  INVALID_VERIFICATION_TOKEN: { status: 401, message: "invalid_token" },
  VERIFICATION_USER_NOT_FOUND: { status: 401, message: "user_not_found" },
  VERIFICATION_UNAUTHORIZED: { status: 401, message: "unauthorized" },

  // Social sign-in
  PROVIDER_NOT_FOUND: { status: 404, message: "Provider not found" },
  ID_TOKEN_NOT_SUPPORTED: { status: 404, message: "id_token not supported" },
  INVALID_ID_TOKEN: { status: 401, message: "invalid token" },
  FAILED_TO_GET_USER_INFO: { status: 401, message: "Failed to get user info" },
  USER_EMAIL_NOT_FOUND: { status: 401, message: "User email not found" },
  CALLBACK_URL_REQUIRED: { status: 400, message: "callbackURL is required" },
  // The id-token forms of the error catalogue's callback outcomes "signup disabled" / "unable to create user".
  SIGNUP_DISABLED: { status: 401, message: "signup disabled" },
  UNABLE_TO_CREATE_USER: { status: 401, message: "unable to create user" },

  // Email sign-in
  EMAIL_PASSWORD_DISABLED: { status: 400, message: "Email and password is not enabled" },
  INVALID_EMAIL: { status: 400, message: "Invalid email" },
  INVALID_EMAIL_OR_PASSWORD: { status: 401, message: "Invalid email or password" },
  EMAIL_NOT_VERIFIED: { status: 403, message: "Email not verified" },

  // Passwords
  RESET_PASSWORD_DISABLED: { status: 400, message: "Reset password isn't enabled" },
  INVALID_TOKEN: { status: 400, message: "invalid token" },
  PASSWORD_TOO_SHORT: { status: 400, message: "Password too short" },
  PASSWORD_TOO_LONG: { status: 400, message: "Password too long" },
  CREDENTIAL_ACCOUNT_NOT_FOUND: { status: 400, message: "Credential account not found" },
  INVALID_PASSWORD: { status: 400, message: "Invalid password" },
  PASSWORD_ALREADY_SET: { status: 400, message: "user already has a password" },
  // Not in the new password is in the offline list of common and breached passwords, or the
  // app's isPasswordBreached hook reported it (NIST SP 800-63B §5.1.1.2; features/users/password-policy.ts).
  PASSWORD_COMPROMISED: {
    status: 400,
    message: "Password is too common or has appeared in a data breach; choose another",
  },
  // Not in SPEC: the new password is the account's email address, its local part or the app's name
  // (NIST SP 800-63B §5.1.1.2 context-specific words; features/users/password-rules.ts).
  PASSWORD_CONTEXT_SPECIFIC: {
    status: 400,
    message: "Choose a password that is not your email address or the app's name",
  },
  // Not in 100 consecutive failed sign-ins on one account (NIST SP 800-63B §5.2.2); the
  // owner's password reset clears it (features/sign-in-throttle). The delays before it answer
  // ACCOUNT_TEMPORARILY_LOCKED.
  SIGN_IN_LOCKED: {
    status: 403,
    message: "Too many failed sign-in attempts. Reset your password to sign in.",
  },

  // Deletion and email change
  SESSION_EXPIRED: { status: 400, message: "Session expired" },
  DELETE_USER_DISABLED: { status: 404, message: "Not found" },
  // Not in a `hooks.user.delete.before` hook refused the deletion (config/hooks.ts).
  DELETE_USER_REFUSED: { status: 403, message: "User deletion was refused" },
  // Not in the user is the only owner of an organization that has other members
  // (docs/security.md; features/deletion/organizations.ts). 400 like CANNOT_LEAVE_AS_ONLY_OWNER.
  SOLE_OWNER_CANNOT_BE_DELETED: {
    status: 400,
    message: "Transfer ownership or delete the organization first",
  },
  CHANGE_EMAIL_DISABLED: { status: 400, message: "Change email is disabled" },
  EMAIL_IS_THE_SAME: { status: 400, message: "Email is the same" },
  EMAIL_CAN_NOT_BE_UPDATED: { status: 400, message: "Couldn't update your email" },
  // Not in update-user with no field to change, or refused by a user update hook.
  NO_FIELDS_TO_UPDATE: { status: 400, message: "No fields to update" },
  FAILED_TO_UPDATE_USER: { status: 400, message: "Failed to update user" },
  USER_ALREADY_EXISTS: { status: 422, message: "User already exists" },

  // Accounts
  FAILED_TO_UNLINK_LAST_ACCOUNT: { status: 400, message: "You can't unlink your last account" },
  ACCOUNT_NOT_FOUND: { status: 400, message: "Account not found" },
  LINKING_NOT_ALLOWED: { status: 401, message: "Account not linked - linking not allowed" },
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: { status: 401, message: "different emails not allowed" },
  UNABLE_TO_CREATE_ACCOUNT: { status: 417, message: "unable to create account" },
  USER_ID_OR_SESSION_REQUIRED: { status: 400, message: "Either userId or session is required" },
  PROVIDER_NOT_SUPPORTED: { status: 400, message: "Provider {id} is not supported" },
  TOKEN_REFRESH_NOT_SUPPORTED: { status: 400, message: "does not support token refreshing" },
  FAILED_TO_GET_ACCESS_TOKEN: { status: 400, message: "Failed to get a valid access token" },
  FAILED_TO_REFRESH_ACCESS_TOKEN: { status: 400, message: "Failed to refresh access token" },
  ACCOUNT_USER_ALREADY_EXISTS: { status: 422, message: "User already exists" },
  // The JSON form of the callback code account_already_linked_to_different_user.
  ACCOUNT_ALREADY_LINKED_TO_DIFFERENT_USER: {
    status: 400,
    message: "account already linked to a different user",
  },

  // Organizations
  ORGANIZATION_CREATION_NOT_ALLOWED: { status: 403, message: "not allowed to create a new organization" },
  ORGANIZATION_LIMIT_REACHED: { status: 403, message: "maximum number of organizations reached" },
  ORGANIZATION_ALREADY_EXISTS: { status: 400, message: "Organization already exists" },
  ORGANIZATION_NOT_FOUND: { status: 400, message: "Organization not found" },
  USER_NOT_MEMBER: { status: 400, message: "User is not a member of the organization" },
  ORGANIZATION_UPDATE_NOT_ALLOWED: {
    status: 403,
    message: "not allowed to update or delete this organization",
  },
  NO_ACTIVE_ORGANIZATION: { status: 400, message: "No active organization" },
  MEMBER_NOT_FOUND: { status: 400, message: "Member not found" },
  TEAM_NOT_FOUND: { status: 400, message: "Team not found" },
  CANNOT_LEAVE_AS_ONLY_OWNER: { status: 400, message: "cannot leave as the only owner" },
  MEMBER_DELETE_NOT_ALLOWED: { status: 403, message: "not allowed to delete this member" },
  INVITATION_NOT_FOUND: { status: 400, message: "Invitation not found" },
  NOT_INVITATION_RECIPIENT: { status: 403, message: "not the recipient of the invitation" },
  INVITATION_CANCEL_NOT_ALLOWED: { status: 403, message: "not allowed to cancel this invitation" },
  INVITER_NO_LONGER_MEMBER: { status: 400, message: "Inviter is no longer a member" },
  FAILED_TO_RETRIEVE_INVITATION: { status: 400, message: "Failed to retrieve invitation" },
  UNABLE_TO_REMOVE_LAST_TEAM: { status: 400, message: "Unable to remove last team" },
  MEMBERSHIP_LIMIT_REACHED: { status: 403, message: "Organization membership limit reached" },
  TEAM_DELETE_NOT_ALLOWED: { status: 403, message: "not allowed to delete teams" },
  TEAM_UPDATE_NOT_ALLOWED: { status: 403, message: "not allowed to update or delete this team" },
  TEAM_MEMBER_LIMIT_REACHED: { status: 403, message: "Team member limit reached" },
  NOT_AUTHENTICATED: { status: 401, message: "Not authenticated" },
  ORGANIZATION_ID_REQUIRED: { status: 400, message: "Organization ID is required" },
  NOT_A_MEMBER_OF_ORGANIZATION: { status: 403, message: "You are not a member of this organization" },
  // Not in organization refusals docs/decisions/ describe without a message (Better Auth's wording).
  ORGANIZATION_SLUG_TAKEN: { status: 400, message: "Organization slug already taken" },
  ORGANIZATION_DELETION_DISABLED: { status: 404, message: "Organization deletion is disabled" },
  MEMBER_ALREADY_EXISTS: { status: 400, message: "User is already a member of this organization" },
  MEMBER_UPDATE_NOT_ALLOWED: { status: 403, message: "not allowed to update this member" },
  MEMBER_ROLE_NOT_FOUND: { status: 400, message: "Role not found" },
  MEMBER_USER_NOT_FOUND: { status: 400, message: "User not found" },
  INVITATION_CREATE_NOT_ALLOWED: { status: 403, message: "not allowed to invite users to this organization" },
  INVITATION_ROLE_NOT_ALLOWED: { status: 403, message: "not allowed to invite a user with this role" },
  INVITATION_ALREADY_PENDING: { status: 400, message: "User is already invited to this organization" },
  INVITATION_LIMIT_REACHED: { status: 403, message: "Invitation limit reached" },
  INVITATION_EMAIL_NOT_VERIFIED: {
    status: 403,
    message: "Email verification required before accepting or rejecting invitation",
  },
  TEAM_CREATE_NOT_ALLOWED: { status: 403, message: "not allowed to create teams in this organization" },
  TEAM_LIMIT_REACHED: { status: 400, message: "maximum number of teams reached" },
  TEAM_MEMBER_ALREADY_EXISTS: { status: 400, message: "User is already a member of this team" },
  TEAM_MEMBER_NOT_FOUND: { status: 400, message: "Team member not found" },
  TEAM_NOT_A_MEMBER: { status: 403, message: "User is not a member of the team" },
  TEAM_NO_ACTIVE_TEAM: { status: 400, message: "You do not have an active team" },

  // API keys
  API_KEY_NOT_FOUND: { status: 404, message: "not found" },
  API_KEY_DISABLED: { status: 401, message: "disabled" },
  API_KEY_EXPIRED: { status: 401, message: "expired" },
  API_KEY_USAGE_EXCEEDED: { status: 429, message: "usage limit reached" },
  API_KEY_RATE_LIMITED: { status: 429, message: "rate limit exceeded" },
  API_KEY_INVALID: { status: 401, message: "invalid" },
  API_KEY_UPDATE_FAILED: { status: 500, message: "failed to update" },

  // Access control
  RESOURCE_ACCESS_NOT_ALLOWED: { status: 403, message: "not allowed to access resource" },
  RESOURCE_ACCESS_UNAUTHORIZED: { status: 401, message: "unauthorized to access resource" },
  NOT_AUTHORIZED: { status: 403, message: "Not authorized" },

  // Admin area: not in the error catalogue (which gives only the access-control messages above); the texts of the
  // widely used Better Auth admin API (docs/decisions/ "where docs/decisions/ is silent").
  BANNED_USER: {
    status: 403,
    message:
      "You have been banned from this application. Please contact support if you believe this is an error.",
  },
  USER_NOT_FOUND: { status: 404, message: "User not found" },
  FAILED_TO_CREATE_USER: { status: 400, message: "Failed to create user" },
  INVALID_ROLE: { status: 400, message: "You are not allowed to set a non-existent role value" },
  CANNOT_BAN_YOURSELF: { status: 400, message: "You cannot ban yourself" },
  CANNOT_REMOVE_YOURSELF: { status: 400, message: "You cannot remove yourself" },
  CANNOT_IMPERSONATE_YOURSELF: { status: 400, message: "You cannot impersonate yourself" },
  CANNOT_IMPERSONATE_ADMINS: { status: 403, message: "You cannot impersonate admins" },
  CANNOT_IMPERSONATE_BANNED_USER: { status: 403, message: "You cannot impersonate a banned user" },
  NOT_ALLOWED_WHILE_IMPERSONATING: {
    status: 403,
    message: "You cannot perform this action while impersonating a user",
  },
  NOT_IMPERSONATING: { status: 400, message: "You are not impersonating anyone" },
  // docs/security.md (ASVS 6.4.6): a password an admin set (set-user-password) signs nobody in;
  // the user resets it first. Answered only to someone who gave that password.
  PASSWORD_RESET_REQUIRED: {
    status: 403,
    message: "Your password was set by an administrator. Reset it to sign in.",
  },

  // Two-factor: the error catalogue gives no texts; those of the widely used Better Auth two-factor API
  // (docs/decisions/ "where docs/decisions/ is silent"). Wrong code / bad challenge 401, spent budget 400, lockout 429.
  TWO_FACTOR_NOT_ENABLED: { status: 400, message: "Two factor isn't enabled" },
  // Not in Better Auth: enable while on would swap the active secret for an unconfirmed one.
  TWO_FACTOR_ALREADY_ENABLED: { status: 400, message: "Two factor is already enabled" },
  TOTP_NOT_ENABLED: { status: 400, message: "TOTP not enabled" },
  OTP_NOT_ENABLED: { status: 400, message: "OTP not enabled" },
  OTP_HAS_EXPIRED: { status: 400, message: "OTP has expired" },
  INVALID_CODE: { status: 401, message: "Invalid code" },
  INVALID_BACKUP_CODE: { status: 401, message: "Invalid backup code" },
  INVALID_TWO_FACTOR_COOKIE: { status: 401, message: "Invalid two factor cookie" },
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: {
    status: 400,
    message: "Too many attempts. Please request a new code.",
  },
  ACCOUNT_TEMPORARILY_LOCKED: {
    status: 429,
    message: "Account temporarily locked due to too many failed attempts. Try again later.",
  },
  // features/two-factor/lockout.ts: 100 consecutive failures (NIST SP 800-63B §5.2.2).
  TWO_FACTOR_LOCKED: {
    status: 403,
    message: "Too many failed attempts. Sign in with a backup code.",
  },

  // Mailed codes (features/passwordless, docs/passwordless.md): Better Auth emailOTP's codes and
  // texts. A wrong code 400; a code past its tries 403, whatever is typed next.
  INVALID_OTP: { status: 400, message: "Invalid OTP" },
  OTP_EXPIRED: { status: 400, message: "OTP expired" },
  TOO_MANY_ATTEMPTS: { status: 403, message: "Too many attempts" },

  // API keys: not in the error catalogue, an expiresIn outside the configured bounds (features/api-key);
  // the texts of the widely used Better Auth API (docs/decisions/ "where docs/decisions/ is silent").
  API_KEY_EXPIRES_IN_TOO_SMALL: {
    status: 400,
    message: "The expiresIn is smaller than the predefined minimum value.",
  },
  API_KEY_EXPIRES_IN_TOO_LARGE: {
    status: 400,
    message: "The expiresIn is larger than the predefined maximum value.",
  },

  // Passkeys (features/passkey, docs/passkeys.md): Better Auth's passkey codes and texts where it has
  // them; a refused ceremony says nothing about which check failed (the log does).
  CHALLENGE_NOT_FOUND: { status: 400, message: "Challenge not found" },
  YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY: {
    status: 401,
    message: "You are not allowed to register this passkey",
  },
  FAILED_TO_VERIFY_REGISTRATION: { status: 400, message: "Failed to verify registration" },
  PASSKEY_NOT_FOUND: { status: 404, message: "Passkey not found" },
  AUTHENTICATION_FAILED: { status: 401, message: "Authentication failed" },
  PASSKEY_ALREADY_REGISTERED: { status: 400, message: "This passkey is already registered" },
  SESSION_REQUIRED: {
    status: 401,
    message: "Passkey registration requires an authenticated session",
  },
  // An organization's authenticator policy (contracts/organization-passkey-policy.ts): names the field.
  INVALID_AAGUID: {
    status: 400,
    message:
      "Invalid aaguids: each must be an authenticator AAGUID (a UUID such as fa2b99dc-9e39-4257-8f92-4a30d23c4118), at most 100",
  },
  CANNOT_REMOVE_LAST_SIGN_IN_METHOD: {
    status: 400,
    message:
      "You cannot remove your only way to sign in. Add a password, a social account or another passkey first.",
  },

  // SSO connections (features/sso, docs/security.md "Single sign-on").
  SSO_PROVIDER_NOT_FOUND: { status: 404, message: "SSO provider not found" },
  // SCIM connections (features/scim/tokens): a token named by its provider id in the organization.
  SCIM_CONNECTION_NOT_FOUND: { status: 404, message: "SCIM connection not found" },
  SSO_SETUP_LINK_INVALID: {
    status: 400,
    message: "This setup link is invalid, has expired or has already been used",
  },
  SSO_SETUP_LINK_OTHER_ORGANIZATION: {
    status: 403,
    message: "This setup link is for another organization",
  },
  SSO_MANAGE_NOT_ALLOWED: {
    status: 403,
    message: "You must be an organization owner or admin to manage its SSO providers",
  },
  SSO_PROVIDER_ID_TAKEN: { status: 422, message: "SSO provider with this providerId already exists" },
  SSO_PROVIDER_ID_RESERVED: {
    status: 422,
    message: "This providerId is reserved and cannot be used for an SSO provider",
  },
  SSO_CONFIG_REQUIRED: { status: 400, message: "Give either oidcConfig or samlConfig, not both" },
  SSO_ENDPOINTS_REQUIRED: {
    status: 400,
    message: "With skipDiscovery, give authorizationEndpoint, tokenEndpoint and jwksEndpoint",
  },
  SSO_DEFAULT_ROLE_NOT_ALLOWED: {
    status: 400,
    message: "defaultRole must be a role of the organization other than the owner's",
  },
  SSO_URL_NOT_ALLOWED: {
    status: 400,
    message: "The identity provider's URL is refused: it must be an https URL of a public address",
  },
  SSO_DISCOVERY_FAILED: {
    status: 400,
    message:
      "The identity provider's settings could not be fetched: check the issuer address, and the discovery URL if you gave one",
  },
  SSO_DISCOVERY_INVALID: {
    status: 400,
    message:
      "The discovery document names another issuer, or lacks the authorization, token or JWKS endpoint",
  },
  SSO_JWKS_HOST_MISMATCH: { status: 400, message: "The JWKS URL is on another host than the issuer" },
  SSO_JWKS_UNUSABLE: {
    status: 400,
    message: "The identity provider's signing keys (JWKS) could not be fetched or hold no usable key",
  },
  SSO_NO_UPDATE_FIELDS: { status: 400, message: "No fields provided for update" },
  SSO_SIGN_IN_TARGET_REQUIRED: {
    status: 400,
    message: "email, organizationSlug, domain or providerId is required",
  },
  SSO_PROVIDER_DISABLED: { status: 403, message: "This SSO connection is turned off" },
  SSO_STATE_INVALID: {
    status: 400,
    message: "This sign-in has expired or was already used: start the sign-in again",
  },
  SSO_IDP_ERROR: { status: 400, message: "The identity provider refused the sign-in" },
  SSO_TOKEN_INVALID: { status: 401, message: "The identity provider's answer could not be verified" },
  SSO_IDP_UNAVAILABLE: { status: 502, message: "The identity provider could not be reached" },
  SSO_EMAIL_MISSING: { status: 400, message: "The identity provider did not give an email address" },
  SSO_ACCOUNT_NOT_LINKABLE: {
    status: 403,
    message:
      "An account with this email already exists: single sign-on can sign into it only once the organization has verified the email's domain",
  },

  // SAML (features/sso/saml, docs/security.md "SAML"): what the ACS answers for a refused response.
  INVALID_SAML_RESPONSE: {
    status: 400,
    message: "The SAML response is invalid or its signature could not be verified",
  },
  SAML_XML_NOT_ALLOWED: {
    status: 400,
    message:
      "The SAML response contains a DOCTYPE, a comment or a processing instruction, which are not allowed",
  },
  SAML_ALGORITHM_NOT_ALLOWED: {
    status: 400,
    message:
      "The SAML response is signed with an algorithm that is not allowed: SHA-256 or stronger is required",
  },
  SAML_RESPONSE_EXPIRED: { status: 400, message: "The SAML assertion has expired or is not valid yet" },
  SAML_WRONG_RECIPIENT: {
    status: 400,
    message: "The SAML response is meant for another service provider or address",
  },
  SAML_WRONG_ISSUER: {
    status: 400,
    message: "The SAML response comes from another identity provider than this connection's",
  },

  // Webhooks (features/webhooks, docs/security.md "Webhooks")
  WEBHOOKS_NOT_ENABLED: { status: 400, message: "Webhooks are not enabled" },
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, message: "Webhook endpoint not found" },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, message: "Webhook delivery not found" },
  INVALID_WEBHOOK_URL: {
    status: 400,
    message: "The webhook URL must be an https URL of a public address",
  },
  WEBHOOK_EVENT_TYPE_NOT_ORGANIZATION: {
    status: 400,
    message:
      "An organization's webhook receives only organization, member, invitation and team events: the others go to the app's webhooks",
  },
  WEBHOOK_MANAGE_NOT_ALLOWED: {
    status: 403,
    message: "You are not allowed to manage this organization's webhooks",
  },

  // Verified domains (features/sso-domains, docs/security.md "Verified domains").
  INVALID_DOMAIN: { status: 400, message: "Invalid domain: give a host name such as example.com" },
  DOMAIN_NOT_CLAIMABLE: {
    status: 400,
    message: "This domain cannot be claimed: it is a free-mail provider's or a public suffix",
  },
  DOMAIN_ALREADY_CLAIMED: { status: 409, message: "This organization has already claimed this domain" },
  DOMAIN_LIMIT_REACHED: { status: 403, message: "This organization has claimed the most domains it may" },
  DOMAIN_NOT_FOUND: { status: 404, message: "Domain not found" },
  DOMAIN_CLAIM_EXPIRED: {
    status: 400,
    message: "The claim on this domain has expired: add the domain again for a new token",
  },
  DOMAIN_PROOF_NOT_FOUND: {
    status: 400,
    message: "No proof of the domain was found: publish the TXT record or the file, then verify again",
  },
  DOMAIN_VERIFIED_BY_ANOTHER_ORGANIZATION: {
    status: 409,
    message: "Another organization has already verified this domain",
  },
  AUTO_JOIN_ROLE_NOT_ALLOWED: {
    status: 400,
    message: "autoJoinRole must be a role of the organization other than the owner's",
  },
  SSO_CONNECTION_REQUIRED: {
    status: 400,
    message: "Turn on a single sign-on connection for this organization before requiring single sign-on",
  },
  SSO_LAST_CONNECTION_REQUIRED: {
    status: 400,
    message:
      "This organization requires single sign-on for its domains: stop requiring it before turning off or deleting its last connection",
  },
  // A verified domain's organization requires single sign-on for its addresses; {organization}: its name.
  SSO_REQUIRED: { status: 403, message: "Sign in with {organization}'s single sign-on" },
  SAML_REQUEST_UNKNOWN: {
    status: 400,
    message:
      "The SAML response does not answer a sign-in started here, or that sign-in has expired: start the sign-in again",
  },
  SAML_IDP_INITIATED_NOT_ALLOWED: {
    status: 400,
    message: "This connection does not accept sign-ins started at the identity provider",
  },
  SAML_ASSERTION_REPLAYED: { status: 400, message: "This SAML assertion has already been used" },
  SAML_CONFIG_INCOMPLETE: {
    status: 400,
    message: "The SAML connection lacks the identity provider's entity ID or signing certificate",
  },
  // Read when a connection is registered or changed (features/sso/saml/certificate.ts).
  SAML_CERTIFICATE_INVALID: {
    status: 400,
    message:
      "The identity provider's signing certificate could not be read: paste it in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----",
  },
  SAML_CERTIFICATE_EXPIRED: {
    status: 400,
    message:
      "The identity provider's signing certificate has expired: download the current one from the identity provider and paste it here",
  },

  // Request hygiene: not in the error catalogue, needed by the HTTP layer (docs/decisions/: UPPER_SNAKE code + message)
  NOT_FOUND: { status: 404, message: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, message: "Method not allowed" },
  BODY_TOO_LARGE: { status: 413, message: "Request body too large" },
  INVALID_JSON: { status: 400, message: "Invalid JSON body" },
  UNSUPPORTED_CONTENT_TYPE: { status: 400, message: "Unsupported content type" },
  VALIDATION_ERROR: { status: 400, message: "Invalid request" },
  TOO_MANY_REQUESTS: { status: 429, message: "Too many requests. Please try again later." },
  SERVICE_UNAVAILABLE: { status: 503, message: "Service unavailable" },
  // A code or link valid for minutes could not be mailed (features/mail-outbox): it was withdrawn,
  // and the user is told to try again rather than wait for a mail that will not come.
  MAIL_UNAVAILABLE: {
    status: 503,
    message: "The email could not be sent right now. Please try again in a few minutes.",
  },
  INTERNAL_SERVER_ERROR: { status: 500, message: "Internal server error" },
  FORBIDDEN_SERVER_ONLY: { status: 404, message: "Not found" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
