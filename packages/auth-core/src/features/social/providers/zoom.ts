import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, asString, joinName, pickName } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Zoom. Quirks: client credentials as HTTP basic auth; scopes are configured on the Zoom app (none
 * sent by default); `verified` is 1 or 0.
 */

function mapZoomUser(body: unknown): ProviderProfile | null {
  const user = asRecord(body);
  const id = asId(user?.id);
  if (!user || id === null) return null;
  const email = asString(user.email);
  return {
    id,
    email,
    emailVerified: email !== null && user.verified === 1,
    name: pickName([user.display_name, joinName(user.first_name, user.last_name)], email),
    image: asImageURL(user.pic_url),
  };
}

export function createZoomProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "zoom",
      name: "Zoom",
      endpoints: {
        authorization: "https://zoom.us/oauth/authorize",
        token: "https://zoom.us/oauth/token",
        userInfo: "https://api.zoom.us/v2/users/me",
        revocation: "https://zoom.us/oauth/revoke",
      },
      defaultScopes: [],
      pkce: true,
      clientAuth: "basic",
      refresh: true,
      mapUserInfo: mapZoomUser,
    },
    options,
    deps,
  );
}
