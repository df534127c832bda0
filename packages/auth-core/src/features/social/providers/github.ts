import { createProviderFromSpec } from "./base.ts";
import { asArray, asId, asImageURL, asRecord, asString, pickName } from "./fields.ts";
import { fetchUserInfo } from "./oauth2.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * GitHub. Quirks: `/user` has `email: null` when the address is private, and never says whether
 * it is verified, so the profile always takes the primary address and its `verified` flag from
 * `/user/emails`; the token endpoint answers errors with HTTP 200 and an `error` field (handled by
 * normalizeTokens); the API refuses requests without a User-Agent (sent by fetchProvider).
 */

const API_HEADERS = { accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" };

function mapGithubUser(userBody: unknown, emailsBody: unknown): ProviderProfile | null {
  const user = asRecord(userBody);
  const id = asId(user?.id);
  if (!user || id === null) return null;
  const emails = asArray(emailsBody)
    .map(asRecord)
    .filter((entry) => entry !== null);
  const primary = emails.find((entry) => entry.primary === true) ?? emails[0];
  const email = asString(user.email) ?? asString(primary?.email);
  const listed = emails.find((entry) => asString(entry.email) === email);
  return {
    id,
    email,
    emailVerified: email !== null && listed?.verified === true,
    name: pickName([user.name, user.login], email),
    image: asImageURL(user.avatar_url),
  };
}

export function createGithubProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "github",
      name: "GitHub",
      endpoints: {
        authorization: "https://github.com/login/oauth/authorize",
        token: "https://github.com/login/oauth/access_token",
        userInfo: "https://api.github.com/user",
        extra: { emails: "https://api.github.com/user/emails" },
      },
      defaultScopes: ["read:user", "user:email"],
      pkce: true,
      clientAuth: "body",
      // GitHub Apps with expiring user tokens issue refresh tokens; OAuth Apps answer without one.
      refresh: true,
      getUserProfile: async (client, tokens) => {
        const request = { headers: API_HEADERS };
        const [user, emails] = await Promise.all([
          fetchUserInfo(client, client.endpoints.userInfo, tokens, request),
          client.endpoints.extra?.emails
            ? fetchUserInfo(client, client.endpoints.extra.emails, tokens, request)
            : null,
        ]);
        return mapGithubUser(user, emails);
      },
    },
    options,
    deps,
  );
}
