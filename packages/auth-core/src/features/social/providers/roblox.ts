import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, type JsonRecord, pickName } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/** Roblox (OpenID Connect). Quirk: Roblox shares no email at all; the display name is `nickname`. */

function mapRobloxClaims(claims: JsonRecord | null): ProviderProfile | null {
  const id = asId(claims?.sub);
  if (!claims || id === null) return null;
  return {
    id,
    email: null,
    emailVerified: false,
    name: pickName([claims.nickname, claims.name, claims.preferred_username], null),
    image: asImageURL(claims.picture),
  };
}

export function createRobloxProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "roblox",
      name: "Roblox",
      endpoints: {
        authorization: "https://apis.roblox.com/oauth/v1/authorize",
        token: "https://apis.roblox.com/oauth/v1/token",
        userInfo: "https://apis.roblox.com/oauth/v1/userinfo",
        jwks: "https://apis.roblox.com/oauth/v1/certs",
        issuer: "https://apis.roblox.com/oauth/",
        revocation: "https://apis.roblox.com/oauth/v1/token/revoke",
      },
      defaultScopes: ["openid", "profile"],
      pkce: true,
      clientAuth: "body",
      refresh: true,
      mapUserInfo: (info) => mapRobloxClaims(asRecord(info)),
      idToken: { toProfile: mapRobloxClaims },
    },
    options,
    deps,
  );
}
