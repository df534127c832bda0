import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, pickName } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Reddit. Quirks: the token endpoint takes client credentials only as HTTP basic auth; refresh
 * tokens only with `duration=permanent`; /api/v1/me has no email; `icon_img` comes HTML-escaped.
 */

function mapRedditUser(body: unknown): ProviderProfile | null {
  const user = asRecord(body);
  const id = asId(user?.id);
  if (!user || id === null) return null;
  const icon = typeof user.icon_img === "string" ? user.icon_img.replace(/&amp;/g, "&") : null;
  return {
    id,
    email: null,
    emailVerified: false,
    name: pickName([user.name], null),
    image: asImageURL(icon),
  };
}

export function createRedditProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "reddit",
      name: "Reddit",
      endpoints: {
        authorization: "https://www.reddit.com/api/v1/authorize",
        token: "https://www.reddit.com/api/v1/access_token",
        userInfo: "https://oauth.reddit.com/api/v1/me",
        revocation: "https://www.reddit.com/api/v1/revoke_token",
      },
      defaultScopes: ["identity"],
      pkce: false,
      clientAuth: "basic",
      refresh: true,
      authorizationParams: { duration: "permanent" },
      mapUserInfo: mapRedditUser,
    },
    options,
    deps,
  );
}
