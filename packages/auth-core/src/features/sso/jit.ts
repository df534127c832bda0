import type { AuthContext } from "../../context.ts";
import type { SsoProviderDoc, UserDoc } from "../../db/documents.ts";
import type { ErrorCode } from "../../errors/catalogue.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { isAllowedUserURL } from "../../http/user-urls.ts";
import { recordAuditEvent } from "../admin/index.ts";
import { addMemberWithinLimit, findMember } from "../organization/index.ts";
import { establishSession } from "../session/index.ts";
import { type ProviderTokens, resolveSocialUser, twoFactorPageURL } from "../social/index.ts";
import { updateUser } from "../users/index.ts";
import { emailDomainOf } from "./domains.ts";
import { type MappedIdentity, roleForGroups } from "./rules.ts";
import { isEmailDomainVerified } from "./service.ts";

/**
 * Just-in-time users and members (docs/security.md "Single sign-on"). The IdP vouches for an
 * address only in a domain its organization has verified: only then is a new user's address
 * verified, and only then may the sign-in reach an existing user of that address (through social's
 * linking rules, which also want that user's own address verified). Otherwise a customer's IdP could
 * assert anyone's address and take over their account (pre-hijack).
 */

export interface SsoRequest {
  cookies: CookieJar;
  ip: string | null;
  headers: Headers;
}

export interface SsoSignedIn {
  isNewUser: boolean;
  /** Set when the second factor is still due: where to send the browser instead of the destination. */
  twoFactorURL: ((destination: string) => string) | null;
}

const REFUSALS: Record<string, ErrorCode> = {
  account_not_linked: "SSO_ACCOUNT_NOT_LINKABLE",
  unable_to_link_account: "SSO_ACCOUNT_NOT_LINKABLE",
  email_not_found: "SSO_EMAIL_MISSING",
};

/** The user of the identity: found by the (connection, subject) account, linked, or created. */
async function resolveUser(
  auth: AuthContext,
  provider: SsoProviderDoc,
  identity: MappedIdentity & { id: string; email: string },
  tokens: ProviderTokens,
  language: string | null,
): Promise<Outcome<{ user: UserDoc; isNewUser: boolean }, ErrorCode>> {
  const domain = emailDomainOf(identity.email);
  const outcome = await resolveSocialUser(
    auth,
    {
      providerId: provider.providerId,
      // Decided by checkEmailVerified: the domain is read only where it can change the outcome (a
      // returning user whose address is verified already skips it).
      profile: {
        id: identity.id,
        email: identity.email,
        emailVerified: false,
        name: identity.name,
        image: identity.image,
      },
      checkEmailVerified: async () =>
        domain !== null && (await isEmailDomainVerified(auth, provider, domain)),
      tokens,
    },
    { disabled: false, implicitDisabled: false, requested: true, language },
  );
  if (!outcome.ok) return refused(REFUSALS[outcome.error] ?? "UNABLE_TO_CREATE_USER");
  const { user, isNewUser } = outcome;
  // overrideUserInfo (Better Auth's): the IdP is the source of a returning user's name and picture.
  // The picture follows the rule of one a user types (http/user-urls.ts), as at sign-up.
  const image =
    identity.image && identity.image.length <= 2048 && isAllowedUserURL(auth, identity.image)
      ? identity.image
      : (user.image ?? null);
  const stale = user.name !== identity.name || (user.image ?? null) !== image;
  if (!isNewUser && provider.oidcConfig?.overrideUserInfo && identity.name && stale) {
    const updated = await updateUser(auth, user._id, { name: identity.name, image });
    return granted({ user: updated ?? user, isNewUser });
  }
  return granted({ user, isNewUser });
}

/** The user's membership of the connection's organization, created with the mapped role when missing. */
async function ensureMembership(
  auth: AuthContext,
  provider: SsoProviderDoc,
  user: UserDoc,
  groups: string[],
): Promise<Outcome<boolean, "MEMBERSHIP_LIMIT_REACHED">> {
  if (await findMember(auth, provider.organizationId, user._id)) return granted(false);
  const added = await addMemberWithinLimit(auth, {
    organizationId: provider.organizationId,
    userId: user._id,
    role: roleForGroups(groups, provider.mapping, provider.defaultRole),
    teamId: null,
  });
  if (!added.ok && added.reason === "limit") return refused("MEMBERSHIP_LIMIT_REACHED");
  return granted(added.ok);
}

/**
 * User, membership, then the session through the one pipeline (ban check, second-factor gate,
 * cookies); one audit row. Refusals are catalogue codes for the callback's error redirect.
 */
export async function signInSsoUser(
  auth: AuthContext,
  request: SsoRequest,
  provider: SsoProviderDoc,
  identity: MappedIdentity & { id: string },
  extra: { tokens: ProviderTokens; language: string | null },
): Promise<Outcome<SsoSignedIn, ErrorCode>> {
  if (identity.email === null) return refused("SSO_EMAIL_MISSING");
  const resolved = await resolveUser(
    auth,
    provider,
    { ...identity, email: identity.email },
    extra.tokens,
    extra.language,
  );
  if (!resolved.ok) return resolved;
  const { user, isNewUser } = resolved.value;
  const joined = await ensureMembership(auth, provider, user, identity.groups);
  if (!joined.ok) return joined;
  const userAgent = request.headers.get("user-agent");
  const minted = await establishSession(auth, { cookies: request.cookies, ip: request.ip, userAgent }, user, {
    rememberMe: true,
    ban: "check",
    secondFactor: "gate",
  });
  if (minted.kind === "banned") return refused("BANNED_USER");
  await recordAuditEvent(auth, {
    action: "organization.sso-sign-in",
    actorId: user._id,
    subjectId: user._id,
    details: {
      organizationId: provider.organizationId.toHexString(),
      providerId: provider.providerId,
      newUser: isNewUser,
      joined: joined.value,
    },
    ip: request.ip,
    userAgent,
  });
  const challenge = minted.kind === "challenge" ? minted.answer : null;
  return granted({
    isNewUser,
    twoFactorURL: challenge ? (destination) => twoFactorPageURL(auth, destination, challenge) : null,
  });
}
