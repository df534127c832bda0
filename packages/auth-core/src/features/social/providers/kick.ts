import { createProviderFromSpec } from "./base.ts";
import { asArray, asId, asImageURL, asRecord, asString, pickName } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Kick. Quirks: PKCE is mandatory; /public/v1/users answers a `data` array; Kick does not say
 * whether the email is verified, so it is not.
 */

function mapKickUser(body: unknown): ProviderProfile | null {
  const user = asRecord(asArray(asRecord(body)?.data)[0]);
  const id = asId(user?.user_id);
  if (!user || id === null) return null;
  const email = asString(user.email);
  return {
    id,
    email,
    emailVerified: false,
    name: pickName([user.name], email),
    image: asImageURL(user.profile_picture),
  };
}

export function createKickProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "kick",
      name: "Kick",
      endpoints: {
        authorization: "https://id.kick.com/oauth/authorize",
        token: "https://id.kick.com/oauth/token",
        userInfo: "https://api.kick.com/public/v1/users",
        revocation: "https://id.kick.com/oauth/revoke",
      },
      defaultScopes: ["user:read"],
      pkce: true,
      clientAuth: "body",
      refresh: true,
      mapUserInfo: mapKickUser,
    },
    options,
    deps,
  );
}
