import { createProviderFromSpec } from "./base.ts";
import { asRecord, profileFromOidcClaims } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions } from "./types.ts";

/**
 * LinkedIn ("Sign In with LinkedIn using OpenID Connect"): standard userinfo claims. Refresh
 * tokens are issued only to apps LinkedIn has enabled for them; others answer without one.
 */
export function createLinkedinProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "linkedin",
      name: "LinkedIn",
      endpoints: {
        authorization: "https://www.linkedin.com/oauth/v2/authorization",
        token: "https://www.linkedin.com/oauth/v2/accessToken",
        userInfo: "https://api.linkedin.com/v2/userinfo",
        jwks: "https://www.linkedin.com/oauth/openid/jwks",
        issuer: "https://www.linkedin.com/oauth",
        revocation: "https://www.linkedin.com/oauth/v2/revoke",
      },
      defaultScopes: ["openid", "profile", "email"],
      pkce: false,
      clientAuth: "body",
      refresh: true,
      mapUserInfo: (info) => profileFromOidcClaims(asRecord(info)),
      // LinkedIn documents no nonce support.
      idToken: { toProfile: profileFromOidcClaims, echoesNonce: false },
    },
    options,
    deps,
  );
}
