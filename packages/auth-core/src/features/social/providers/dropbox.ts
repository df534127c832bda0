import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, asString, pickName } from "./fields.ts";
import { fetchUserInfo } from "./oauth2.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Dropbox. Quirks: the account call is an RPC POST without arguments; refresh tokens only with
 * `token_access_type=offline`.
 */

function mapDropboxAccount(body: unknown): ProviderProfile | null {
  const account = asRecord(body);
  const id = asId(account?.account_id);
  if (!account || id === null) return null;
  const email = asString(account.email);
  const name = asRecord(account.name);
  return {
    id,
    email,
    emailVerified: email !== null && account.email_verified === true,
    name: pickName([name?.display_name, name?.familiar_name], email),
    image: asImageURL(account.profile_photo_url),
  };
}

export function createDropboxProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "dropbox",
      name: "Dropbox",
      endpoints: {
        authorization: "https://www.dropbox.com/oauth2/authorize",
        token: "https://api.dropboxapi.com/oauth2/token",
        userInfo: "https://api.dropboxapi.com/2/users/get_current_account",
        revocation: "https://api.dropboxapi.com/2/auth/token/revoke",
      },
      defaultScopes: ["account_info.read"],
      pkce: true,
      clientAuth: "body",
      refresh: true,
      authorizationParams: { token_access_type: "offline" },
      getUserProfile: async (client, tokens) =>
        mapDropboxAccount(await fetchUserInfo(client, client.endpoints.userInfo, tokens, { method: "POST" })),
    },
    options,
    deps,
  );
}
