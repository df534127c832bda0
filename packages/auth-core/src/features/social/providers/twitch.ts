import { createProviderFromSpec } from "./base.ts";
import { asRecord, type JsonRecord, pickName, profileFromOidcClaims } from "./fields.ts";
import { readTokenEndpointIdToken } from "./id-token.ts";
import { fetchUserInfo } from "./oauth2.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Twitch (OpenID Connect). Quirk: Twitch puts email, email_verified, picture and
 * preferred_username in the id token only when asked through the `claims` parameter; the display
 * name is `preferred_username`.
 */

const CLAIMS = { email: null, email_verified: null, picture: null, preferred_username: null };

function mapTwitchClaims(claims: JsonRecord | null): ProviderProfile | null {
  const profile = profileFromOidcClaims(claims);
  return profile && { ...profile, name: pickName([claims?.preferred_username, profile.name], profile.email) };
}

export function createTwitchProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "twitch",
      name: "Twitch",
      endpoints: {
        authorization: "https://id.twitch.tv/oauth2/authorize",
        token: "https://id.twitch.tv/oauth2/token",
        userInfo: "https://id.twitch.tv/oauth2/userinfo",
        jwks: "https://id.twitch.tv/oauth2/keys",
        issuer: "https://id.twitch.tv/oauth2",
        revocation: "https://id.twitch.tv/oauth2/revoke",
      },
      defaultScopes: ["openid", "user:read:email"],
      pkce: false,
      clientAuth: "body",
      refresh: true,
      authorizationParams: { claims: JSON.stringify({ id_token: CLAIMS, userinfo: CLAIMS }) },
      getUserProfile: async (client, tokens) => {
        const claims = readTokenEndpointIdToken(tokens.idToken);
        if (claims) return mapTwitchClaims(claims);
        return mapTwitchClaims(asRecord(await fetchUserInfo(client, client.endpoints.userInfo, tokens)));
      },
      idToken: { toProfile: mapTwitchClaims },
    },
    options,
    deps,
  );
}
