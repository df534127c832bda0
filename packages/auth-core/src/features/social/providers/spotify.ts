import { createProviderFromSpec } from "./base.ts";
import { asArray, asId, asImageURL, asRecord, asString, pickName } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Spotify. Quirks: client credentials go in HTTP basic auth; Spotify documents the `email` of
 * /v1/me as unverified, so it never counts as verified.
 */

function mapSpotifyUser(body: unknown): ProviderProfile | null {
  const user = asRecord(body);
  const id = asId(user?.id);
  if (!user || id === null) return null;
  const email = asString(user.email);
  return {
    id,
    email,
    emailVerified: false,
    name: pickName([user.display_name], email),
    image: asImageURL(asRecord(asArray(user.images)[0])?.url),
  };
}

export function createSpotifyProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "spotify",
      name: "Spotify",
      endpoints: {
        authorization: "https://accounts.spotify.com/authorize",
        token: "https://accounts.spotify.com/api/token",
        userInfo: "https://api.spotify.com/v1/me",
      },
      defaultScopes: ["user-read-email"],
      pkce: true,
      clientAuth: "basic",
      refresh: true,
      mapUserInfo: mapSpotifyUser,
    },
    options,
    deps,
  );
}
