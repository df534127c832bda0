import type { TwoFactorRedirect } from "../../../contracts/two-factor.ts";
import { withQueryParam } from "../../password/index.ts";

/** Sets query parameters on a URL (absolute or relative), its path kept byte for byte (password's withQueryParam). */
export function withQuery(url: string, values: Record<string, string | undefined>): string {
  let result = url;
  for (const [key, value] of Object.entries(values))
    if (value !== undefined) result = withQueryParam(result, key, value);
  return result;
}

/**
 * Where a browser goes when the second factor is still due after a link sign-in: the app's
 * two-factor page (`twoFactor.twoFactorPage`) with the methods on offer and the destination, as
 * after a provider sign-in. The challenge cookie is set; no session exists yet.
 */
export function twoFactorPageURL(page: string, destination: string, answer: TwoFactorRedirect): string {
  return withQuery(page, {
    twoFactorRedirect: "true",
    twoFactorMethods: answer.twoFactorMethods.join(","),
    callbackURL: destination,
  });
}
