import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, pickName } from "./fields.ts";
import { fetchUserInfo, withQuery } from "./oauth2.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * TikTok Login Kit (web). Quirks: the client is named `client_key` (authorization and token
 * requests); scopes are comma-separated; user info needs an explicit `fields` list that the granted
 * scopes cover; TikTok never returns an email (the flow answers email_not_found unless configured
 * otherwise); the refresh token has its own lifetime (`refresh_expires_in`).
 */

const FIELDS = "open_id,union_id,avatar_url,avatar_large_url,display_name";

function mapTiktokUser(body: unknown): ProviderProfile | null {
  const user = asRecord(asRecord(asRecord(body)?.data)?.user);
  const id = asId(user?.open_id);
  if (!user || id === null) return null;
  return {
    id,
    email: null,
    emailVerified: false,
    name: pickName([user.display_name, user.username], null),
    image: asImageURL(user.avatar_large_url) ?? asImageURL(user.avatar_url),
  };
}

export function createTiktokProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "tiktok",
      name: "TikTok",
      endpoints: {
        authorization: "https://www.tiktok.com/v2/auth/authorize/",
        token: "https://open.tiktokapis.com/v2/oauth/token/",
        userInfo: "https://open.tiktokapis.com/v2/user/info/",
        revocation: "https://open.tiktokapis.com/v2/oauth/revoke/",
      },
      defaultScopes: ["user.info.basic"],
      scopeSeparator: ",",
      clientIdParam: "client_key",
      // TikTok's web flow has no PKCE (its desktop flow uses a non-standard hex challenge).
      pkce: false,
      clientAuth: "body",
      refresh: true,
      getUserProfile: async (client, tokens) => {
        const url = withQuery(client.endpoints.userInfo, { fields: FIELDS });
        return mapTiktokUser(await fetchUserInfo(client, url, tokens));
      },
    },
    options,
    deps,
  );
}
