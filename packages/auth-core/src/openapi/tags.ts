/**
 * One line per contract tag for the API document's `tags` (gateways and generators show them as
 * group headings). A tag used by a contract and missing here fails tests/client/openapi.test.ts.
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  account: "The signed-in user's own account: profile, email address, password, export.",
  admin: "User administration for callers with an admin role: users, bans, sessions, impersonation, audit.",
  "api-key": "API keys of the signed-in user: create, list, update, delete, verify.",
  deletion: "Deleting one's own account, confirmed by password or by a mailed link.",
  "email-password": "Sign-up and sign-in with an email address and a password.",
  events:
    "Changes to users, sessions and organizations: the event catalogue (the webhooks a receiver is sent) and its listings.",
  general: "Health check and the error page.",
  organization: "Organizations: create, update, delete, the active organization, permission checks.",
  "organization-invitations": "Invitations to an organization: send, accept, reject, cancel, list.",
  "organization-members": "Members of an organization and their roles.",
  "organization-teams": "Teams inside an organization and their members.",
  passkey:
    "Passkeys (WebAuthn): register, sign in, passkey-first sign-up, list, rename, delete; an admin's view.",
  password: "Forgotten passwords: the reset mail and the reset itself.",
  passwordless:
    "Sign-in without a password: a mailed link and a mailed 6-digit code (one mail holds both); email verification and password reset by code.",
  scim: "Directory sync (SCIM 2.0): an organization's provisioning tokens; the /scim/v2 resources take the bearer token.",
  session: "The current session, the user's other sessions, sign-out.",
  social: "Sign-in with an OAuth / OpenID Connect provider, linked accounts and their tokens.",
  sso: "Single sign-on per organization: SAML and OIDC connections, SSO sign-in, the SAML ACS and SP metadata.",
  "two-factor": "Second factor: TOTP, mailed one-time codes, backup codes, and the sign-in challenge.",
  verification: "Email address verification.",
  webhooks:
    "Webhook endpoints of the app or an organization: register, update, rotate the signing secret, test, replay, and the delivery log.",
};
