import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, asString, pickName } from "./fields.ts";
import { fetchUserInfo, withQuery } from "./oauth2.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * X (Twitter) OAuth 2.0. Quirks: PKCE is mandatory; confidential clients authenticate with HTTP
 * basic; the email (`confirmed_email`, X-confirmed) comes only with the `users.email` scope, which
 * apps must be approved for — without it the profile has no email.
 */

function mapTwitterUser(body: unknown): ProviderProfile | null {
  const user = asRecord(asRecord(body)?.data);
  const id = asId(user?.id);
  if (!user || id === null) return null;
  const email = asString(user.confirmed_email);
  return {
    id,
    email,
    emailVerified: email !== null,
    name: pickName([user.name, user.username], email),
    image: asImageURL(user.profile_image_url),
  };
}

export function createTwitterProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "twitter",
      name: "X",
      endpoints: {
        authorization: "https://x.com/i/oauth2/authorize",
        token: "https://api.x.com/2/oauth2/token",
        userInfo: "https://api.x.com/2/users/me",
        revocation: "https://api.x.com/2/oauth2/revoke",
      },
      defaultScopes: ["users.read", "tweet.read", "offline.access", "users.email"],
      pkce: true,
      clientAuth: "basic",
      refresh: true,
      getUserProfile: async (client, tokens) => {
        const url = withQuery(client.endpoints.userInfo, {
          "user.fields": "profile_image_url,confirmed_email",
        });
        return mapTwitterUser(await fetchUserInfo(client, url, tokens));
      },
    },
    options,
    deps,
  );
}
