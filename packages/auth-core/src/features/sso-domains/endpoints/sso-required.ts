import type { AuthContext } from "../../../context.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { ERROR_CATALOGUE } from "../../../errors/catalogue.ts";
import { type DomainPolicy, findDomainPolicy, findSsoRefusal } from "../require-sso.ts";

/**
 * The require-SSO guard the sign-in paths run (password, mailed link or code, social; never SSO):
 * throws SSO_REQUIRED naming the organization, with its name and slug beside the message for the
 * app's "sign in with SSO" button (require-sso.ts decides, break-glass included). Answers the domain's
 * policy it read, so that a sign-up hands it on to auto-join instead of reading it again.
 */
export async function assertSignInWithoutSso(
  auth: AuthContext,
  user: Parameters<typeof findSsoRefusal>[1],
  path: Parameters<typeof findSsoRefusal>[2],
  source: Parameters<typeof findSsoRefusal>[3],
): Promise<DomainPolicy> {
  const policy = await findDomainPolicy(auth, user.email);
  const required = await findSsoRefusal(auth, user, path, source, policy);
  if (!required) return policy;
  throw new AuthError("SSO_REQUIRED", {
    message: ERROR_CATALOGUE.SSO_REQUIRED.message.replace("{organization}", required.name),
    details: { organization: required.name, organizationSlug: required.slug },
  });
}
