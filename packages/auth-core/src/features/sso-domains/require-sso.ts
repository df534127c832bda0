import type { AuthContext } from "../../context.ts";
import type { OrganizationDomainDoc, UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { recordAuditEvent } from "../admin/index.ts";
import { findMember, findOrganization, holdsRole } from "../organization/index.ts";
import { emailDomainOf } from "./rules.ts";
import { findVerifiedDomainRowRecent } from "./store.ts";

/**
 * Require SSO (docs/security.md "Verified domains"): an address of a verified domain whose
 * organization requires single sign-on signs in only through that organization's SSO. This is the
 * one check the other sign-in paths run — password (email-password sign-in), passkey, mailed link or
 * code (features/passwordless: before the mail is sent and again at sign-in), social (features/social)
 * — and SSO sign-in does not. An unverified claim never enforces anything.
 */

type SignInPath = "password" | "passkey" | "mail" | "social";

/** The paths an owner of the organization keeps (break-glass): the user's own credentials. */
const BREAK_GLASS_PATHS: readonly SignInPath[] = ["password", "passkey"];

export interface SsoRequirement {
  organizationId: ObjectId;
  name: string;
  slug: string;
}

/**
 * What a verified domain decides for an address (require SSO, auto-join): the domain's verified row,
 * or null when no organization proved it. At most one indexed read (store.ts
 * findVerifiedDomainRowRecent: what this instance read in the last second serves); a sign-up looks it
 * up once and hands it to both decisions.
 */
export type DomainPolicy = OrganizationDomainDoc | null;

export async function findDomainPolicy(auth: AuthContext, email: string): Promise<DomainPolicy> {
  const domain = emailDomainOf(email);
  return domain === null ? null : findVerifiedDomainRowRecent(auth.collections, domain);
}

async function findSsoRequirement(auth: AuthContext, row: DomainPolicy): Promise<SsoRequirement | null> {
  if (!row?.settings.requireSso) return null;
  const organization = await findOrganization(auth, row.organizationId);
  return organization
    ? { organizationId: organization._id, name: organization.name, slug: organization.slug }
    : null;
}

/**
 * Null: the sign-in goes on. Otherwise the organization whose single sign-on the address must use
 * (endpoints/sso-required.ts makes it the SSO_REQUIRED answer). Break-glass: an owner (the creator
 * role) of that organization keeps password sign-in, so a broken IdP never locks the organization
 * out; each such sign-in is an audit event ("organization.sso-break-glass").
 */
export async function findSsoRefusal(
  auth: AuthContext,
  user: Pick<UserDoc, "email"> & { _id?: ObjectId | undefined },
  path: SignInPath,
  source: { ip: string | null; userAgent: string | null },
  policy: DomainPolicy,
): Promise<SsoRequirement | null> {
  const required = await findSsoRequirement(auth, policy);
  if (!required) return null;
  if (BREAK_GLASS_PATHS.includes(path) && user._id) {
    const member = await findMember(auth, required.organizationId, user._id);
    if (member && holdsRole(member.role, auth.options.organization.creatorRole)) {
      await recordAuditEvent(auth, {
        action: "organization.sso-break-glass",
        actorId: user._id,
        subjectId: user._id,
        details: { organizationId: required.organizationId.toHexString(), path },
        ip: source.ip,
        userAgent: source.userAgent,
      });
      return null;
    }
  }
  return required;
}
