import { z } from "zod";
import { defineContract } from "./contract.ts";

/**
 * The expiring SSO setup link (features/sso/setup-link.ts, docs/security.md "Single sign-on"): an
 * organization's owner or admin creates it for the customer's IT admin, who needs no account.
 * Opening it once sets a cookie that manages that organization's SSO connections only.
 */

export interface SsoSetupLink {
  url: string;
  expiresAt: Date;
}

export const createSsoSetupLinkContract = defineContract({
  name: "createSSOSetupLink",
  method: "POST",
  path: "/sso/create-setup-link",
  auth: "session",
  body: z.strictObject({
    /** @default the caller's active organization */
    organizationId: z.string().min(1).max(64).optional(),
    /** Whom the owner means to send it to (kept in the audit row; nothing is mailed). */
    email: z.string().email().max(320).optional(),
  }),
  response: z.strictObject({ url: z.string(), expiresAt: z.date() }) as z.ZodType<SsoSetupLink>,
  errors: ["NO_ACTIVE_ORGANIZATION", "NOT_A_MEMBER_OF_ORGANIZATION", "SSO_MANAGE_NOT_ALLOWED"],
  summary:
    "Creates a setup link (72 hours, single use) letting someone without an account set up the organization's SSO.",
  notes:
    "Owners and admins only. The URL is the app's `sso.setupLinkPath` page with the token; a new link revokes the organization's earlier one, opened or not.",
  tags: ["sso"],
  client: "sso.createSetupLink",
});

export interface SsoSetupOpened {
  organization: { id: string; name: string; slug: string };
  expiresAt: Date;
}

export const openSsoSetupLinkContract = defineContract({
  name: "openSSOSetupLink",
  method: "POST",
  path: "/sso/open-setup-link",
  auth: "none",
  body: z.strictObject({ token: z.string().min(1).max(128) }),
  response: z.strictObject({
    organization: z.strictObject({ id: z.string(), name: z.string(), slug: z.string() }),
    expiresAt: z.date(),
  }) as z.ZodType<SsoSetupOpened>,
  errors: ["SSO_SETUP_LINK_INVALID"],
  summary: "Opens a setup link once: sets the setup cookie for the link's organization and remaining time.",
  notes:
    "The cookie lets its holder list, register, read, update and test that organization's SSO connections, nothing else; it is never a session. A spent, expired, replaced or unknown token answers SSO_SETUP_LINK_INVALID.",
  tags: ["sso"],
  client: "sso.openSetupLink",
});
