import * as account from "./account.ts";
import * as admin from "./admin.ts";
import * as apiKey from "./api-key.ts";
import type { AnyContract } from "./contract.ts";
import * as deletion from "./deletion.ts";
import * as emailPassword from "./email-password.ts";
import * as eventsListing from "./events-listing.ts";
import * as general from "./general.ts";
import * as mailOutbox from "./mail-outbox.ts";
import * as organization from "./organization.ts";
import * as organizationAudit from "./organization-audit.ts";
import * as organizationInvitations from "./organization-invitations.ts";
import * as organizationMembers from "./organization-members.ts";
import * as organizationPasskeyPolicy from "./organization-passkey-policy.ts";
import * as organizationTeams from "./organization-teams.ts";
import * as passkey from "./passkey.ts";
import * as password from "./password.ts";
import * as passwordless from "./passwordless.ts";
import * as scimTokens from "./scim-tokens.ts";
import * as session from "./session.ts";
import * as social from "./social.ts";
import * as sso from "./sso.ts";
import * as ssoDomains from "./sso-domains.ts";
import * as ssoSaml from "./sso-saml.ts";
import * as ssoSetup from "./sso-setup.ts";
import * as twoFactor from "./two-factor.ts";
import * as userExport from "./user-export.ts";
import * as verification from "./verification.ts";
import * as webhooks from "./webhooks.ts";

export type { AnyContract } from "./contract.ts";

/**
 * Every endpoint contract (the exports named `…Contract` of the contract modules): the server pairs
 * each with its handler, the client SDK builds its methods from them, and the API documentation is
 * generated from them.
 */
export const contracts: readonly AnyContract[] = [
  general,
  session,
  emailPassword,
  verification,
  password,
  passwordless,
  account,
  deletion,
  userExport,
  twoFactor,
  passkey,
  admin,
  apiKey,
  organization,
  organizationAudit,
  organizationMembers,
  organizationInvitations,
  organizationTeams,
  organizationPasskeyPolicy,
  sso,
  ssoSetup,
  ssoDomains,
  social,
  scimTokens,
  ssoSaml,
  webhooks,
  eventsListing,
  mailOutbox,
].flatMap((module) =>
  Object.entries(module)
    .filter(([name]) => name.endsWith("Contract"))
    .map(([, contract]) => contract as AnyContract),
);
