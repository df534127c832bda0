import { createProviderFromSpec } from "./base.ts";
import { asRecord, profileFromOidcClaims } from "./fields.ts";
import { readTokenEndpointIdToken } from "./id-token.ts";
import { fetchUserInfo } from "./oauth2.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions } from "./types.ts";

/**
 * Google (OpenID Connect). The profile is read from the id token of the token response (userinfo
 * when there is none). `access_type=offline` asks for a refresh token; Google documents both
 * "https://accounts.google.com" and "accounts.google.com" as id-token issuers.
 */

const ISSUERS = ["https://accounts.google.com", "accounts.google.com"];

export function createGoogleProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  const overriddenIssuer = options.endpoints?.issuer;
  return createProviderFromSpec(
    {
      id: "google",
      name: "Google",
      endpoints: {
        authorization: "https://accounts.google.com/o/oauth2/v2/auth",
        token: "https://oauth2.googleapis.com/token",
        userInfo: "https://openidconnect.googleapis.com/v1/userinfo",
        jwks: "https://www.googleapis.com/oauth2/v3/certs",
        issuer: "https://accounts.google.com",
        revocation: "https://oauth2.googleapis.com/revoke",
      },
      defaultScopes: ["openid", "email", "profile"],
      pkce: true,
      clientAuth: "body",
      refresh: true,
      loginHint: true,
      authorizationParams: { access_type: "offline", include_granted_scopes: "true" },
      getUserProfile: async (client, tokens) => {
        const claims = readTokenEndpointIdToken(tokens.idToken);
        if (claims) return profileFromOidcClaims(claims);
        return profileFromOidcClaims(
          asRecord(await fetchUserInfo(client, client.endpoints.userInfo, tokens)),
        );
      },
      idToken: {
        toProfile: profileFromOidcClaims,
        issuer: (endpoints) => {
          const accepted = overriddenIssuer ? [overriddenIssuer] : [endpoints.issuer ?? "", ...ISSUERS];
          return (issuer) => accepted.includes(issuer);
        },
      },
    },
    options,
    deps,
  );
}
