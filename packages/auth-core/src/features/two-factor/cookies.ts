import type { AuthContext } from "../../context.ts";

/** Cookie names of the feature, prefixed like the session cookies (`__Secure-` over https). */
export function twoFactorCookieNames(auth: AuthContext): { challenge: string; trustDevice: string } {
  const prefix = `${auth.secureCookies ? "__Secure-" : ""}${auth.options.advanced.cookiePrefix}`;
  return { challenge: `${prefix}.two_factor`, trustDevice: `${prefix}.trust_device` };
}
