import type { AuthContext } from "../../context.ts";
import { generateRandomString, sha256Base64Url, signValue, unsignValue } from "../../crypto/index.ts";
import type { OrganizationDoc } from "../../db/documents.ts";
import { type ObjectId, parseId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import type { CookieJar } from "../../http/cookie-jar.ts";
import { findOrganization } from "../organization/index.ts";
import { consumeSetupToken, findLiveSetupLink, replaceSetupLink } from "./setup-link-store.ts";

/**
 * The expiring setup link (issue 31 §2, docs/security.md "Single sign-on"): an owner or admin sends
 * it to the customer's IT admin, who has no account. Opening it once trades the token for a signed
 * cookie that lets its holder manage the SSO connections of that one organization and nothing
 * else: it is never a session, and every request checks it against the organization's live link.
 */

/** 72 hours from creation; opening the link does not extend it. */
const SETUP_LINK_LIFETIME_SECONDS = 72 * 3600;
// Domain separation inside the signed value: no other signed cookie can pass as a setup cookie.
const COOKIE_VALUE_PREFIX = "sso-setup:";

/** What the setup cookie lets its holder manage. */
export interface SetupScope {
  organizationId: ObjectId;
  linkId: string;
  /** The owner or admin who sent the link: a connection registered through it names them as creator. */
  createdBy: ObjectId;
}

/** Prefixed like the session cookies (`__Secure-` over https), as the two-factor cookies are. */
function setupCookieName(auth: AuthContext): string {
  return `${auth.secureCookies ? "__Secure-" : ""}${auth.options.advanced.cookiePrefix}.sso_setup`;
}

/**
 * A new link of the organization (its earlier link, opened or not, stops working). The token is
 * 43 characters of a 62-letter alphabet (256 bits); only its SHA-256 is stored.
 */
export async function createSetupLink(
  auth: AuthContext,
  organizationId: ObjectId,
  createdBy: ObjectId,
): Promise<{ url: string; expiresAt: Date; linkId: string } | null> {
  const token = generateRandomString(43);
  const linkId = generateRandomString(16);
  const now = auth.now();
  const expiresAt = new Date(now.getTime() + SETUP_LINK_LIFETIME_SECONDS * 1000);
  const input = {
    organizationId: organizationId.toHexString(),
    linkId,
    tokenHash: sha256Base64Url(token),
    createdBy: createdBy.toHexString(),
  };
  if (!(await replaceSetupLink(auth.collections, input, expiresAt, now))) return null;
  const appOrigin = new URL(auth.apiURL).origin;
  return { url: `${appOrigin}${auth.options.sso.setupLinkPath}/${token}`, expiresAt, linkId };
}

/**
 * Spends the token (a second open, however close, finds nothing) and sets the setup cookie for the
 * link's remaining time. Unknown, spent, expired or replaced: SSO_SETUP_LINK_INVALID.
 */
export async function openSetupLink(
  auth: AuthContext,
  jar: CookieJar,
  token: string,
): Promise<
  Outcome<{ organization: OrganizationDoc; linkId: string; expiresAt: Date }, "SSO_SETUP_LINK_INVALID">
> {
  const now = auth.now();
  const spent = await consumeSetupToken(auth.collections, sha256Base64Url(token), now);
  const live = spent ? await findLiveSetupLink(auth.collections, spent.organizationId, now) : null;
  const organizationId = spent ? parseId(spent.organizationId) : null;
  const organization = organizationId ? await findOrganization(auth, organizationId) : null;
  if (!spent || !live || live.linkId !== spent.linkId || !organization)
    return refused("SSO_SETUP_LINK_INVALID");
  const maxAge = Math.floor((live.expiresAt.getTime() - now.getTime()) / 1000);
  const value = `${COOKIE_VALUE_PREFIX}${spent.organizationId}.${spent.linkId}`;
  jar.set(setupCookieName(auth), signValue(value, auth.options.secret), {
    maxAge,
    sameSite: "Lax",
    httpOnly: true,
  });
  return granted({ organization, linkId: live.linkId, expiresAt: live.expiresAt });
}

/**
 * The scope of the request's setup cookie: null without one, or when its signature fails, its link
 * expired or was replaced, or its organization is gone.
 */
export async function readSetupScope(auth: AuthContext, jar: CookieJar): Promise<SetupScope | null> {
  const signed = jar.get(setupCookieName(auth));
  const value = signed ? unsignValue(signed, auth.options.secret) : null;
  if (!value?.startsWith(COOKIE_VALUE_PREFIX)) return null;
  const [organizationHex = "", linkId] = value.slice(COOKIE_VALUE_PREFIX.length).split(".");
  const organizationId = parseId(organizationHex);
  if (!organizationId || !linkId) return null;
  const live = await findLiveSetupLink(auth.collections, organizationHex, auth.now());
  const createdBy = live?.linkId === linkId ? parseId(live.createdBy) : null;
  if (!createdBy || !(await findOrganization(auth, organizationId))) return null;
  return { organizationId, linkId, createdBy };
}
