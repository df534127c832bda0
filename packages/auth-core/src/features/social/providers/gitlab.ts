import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, asString, pickName, profileFromOidcClaims } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * GitLab (gitlab.com, or a self-managed instance through `endpoints`). Quirk: /api/v4/user has no
 * `email_verified`; the email counts as verified when the account's `confirmed_at` is set.
 */

function mapGitlabUser(body: unknown): ProviderProfile | null {
  const user = asRecord(body);
  const id = asId(user?.id);
  if (!user || id === null) return null;
  const email = asString(user.email);
  return {
    id,
    email,
    emailVerified: email !== null && asString(user.confirmed_at) !== null,
    name: pickName([user.name, user.username], email),
    image: asImageURL(user.avatar_url),
  };
}

export function createGitlabProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "gitlab",
      name: "GitLab",
      endpoints: {
        authorization: "https://gitlab.com/oauth/authorize",
        token: "https://gitlab.com/oauth/token",
        userInfo: "https://gitlab.com/api/v4/user",
        jwks: "https://gitlab.com/oauth/discovery/keys",
        issuer: "https://gitlab.com",
        revocation: "https://gitlab.com/oauth/revoke",
      },
      defaultScopes: ["read_user"],
      pkce: true,
      clientAuth: "body",
      refresh: true,
      mapUserInfo: mapGitlabUser,
      idToken: { toProfile: profileFromOidcClaims },
    },
    options,
    deps,
  );
}
