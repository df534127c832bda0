import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, asString, pickName, profileFromOidcClaims } from "./fields.ts";
import { fetchUserInfo, withQuery } from "./oauth2.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Facebook Login. Quirks: the Graph API returns only the fields asked for; it never says whether
 * the email is verified (so it is not, unless the app trusts Facebook); no refresh grant (long-lived
 * tokens are a separate exchange). Id tokens are Limited Login's (iss https://www.facebook.com).
 */

function mapFacebookUser(body: unknown): ProviderProfile | null {
  const user = asRecord(body);
  const id = asId(user?.id);
  if (!user || id === null) return null;
  const email = asString(user.email);
  const picture = asRecord(asRecord(user.picture)?.data);
  return {
    id,
    email,
    emailVerified: false,
    name: pickName([user.name], email),
    image: picture?.is_silhouette === true ? null : asImageURL(picture?.url),
  };
}

export function createFacebookProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "facebook",
      name: "Facebook",
      endpoints: {
        authorization: "https://www.facebook.com/v21.0/dialog/oauth",
        token: "https://graph.facebook.com/v21.0/oauth/access_token",
        userInfo: "https://graph.facebook.com/v21.0/me",
        jwks: "https://limited.facebook.com/.well-known/oauth/openid/jwks/",
        issuer: "https://www.facebook.com",
      },
      defaultScopes: ["email", "public_profile"],
      pkce: false,
      clientAuth: "body",
      refresh: false,
      getUserProfile: async (client, tokens) => {
        const url = withQuery(client.endpoints.userInfo, { fields: "id,name,email,picture" });
        return mapFacebookUser(await fetchUserInfo(client, url, tokens));
      },
      // Limited Login echoes only a nonce the app gave its SDK.
      idToken: {
        echoesNonce: false,
        toProfile: (claims) => {
          const profile = profileFromOidcClaims(claims);
          return profile && { ...profile, emailVerified: false };
        },
      },
    },
    options,
    deps,
  );
}
