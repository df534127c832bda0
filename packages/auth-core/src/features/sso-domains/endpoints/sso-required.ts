import { AuthError } from "../../../errors/auth-error.ts";
import { ERROR_CATALOGUE } from "../../../errors/catalogue.ts";
import { findSsoRefusal } from "../require-sso.ts";

/**
 * The require-SSO guard the sign-in paths run (password, mailed link or code, social; never SSO):
 * throws SSO_REQUIRED naming the organization, with its name and slug beside the message for the
 * app's "sign in with SSO" button (require-sso.ts decides, break-glass included).
 */
export async function assertSignInWithoutSso(...args: Parameters<typeof findSsoRefusal>): Promise<void> {
  const required = await findSsoRefusal(...args);
  if (!required) return;
  throw new AuthError("SSO_REQUIRED", {
    message: ERROR_CATALOGUE.SSO_REQUIRED.message.replace("{organization}", required.name),
    details: { organization: required.name, organizationSlug: required.slug },
  });
}
