import { randomBytes } from "node:crypto";
import { createProviderFromSpec } from "./base.ts";
import { asId, asImageURL, asRecord, asString, joinName, pickName } from "./fields.ts";
import { fetchProvider } from "./http.ts";
import type { ClientConfig } from "./oauth2.ts";
import {
  type OAuthProvider,
  type ProviderDeps,
  ProviderError,
  type ProviderOptions,
  type ProviderProfile,
  type ProviderTokens,
} from "./types.ts";

/**
 * VK ID. Quirks: PKCE is mandatory; the callback carries a `device_id` that the token request must
 * repeat; user info is a POST of client_id and access_token; VK does not say whether the email is
 * verified. No refresh here: VK's refresh grant also needs the device_id, which is not kept after
 * sign-in.
 */

function mapVkUser(body: unknown): ProviderProfile | null {
  const user = asRecord(asRecord(body)?.user);
  const id = asId(user?.user_id);
  if (!user || id === null) return null;
  const email = asString(user.email);
  return {
    id,
    email,
    emailVerified: false,
    name: pickName([joinName(user.first_name, user.last_name)], email),
    image: asImageURL(user.avatar),
  };
}

async function fetchVkUser(client: ClientConfig, tokens: ProviderTokens): Promise<ProviderProfile | null> {
  if (tokens.accessToken === null || !client.endpoints.userInfo) return null;
  try {
    const form = { client_id: client.options.clientId, access_token: tokens.accessToken };
    return mapVkUser(await fetchProvider(client.deps, client.endpoints.userInfo, { method: "POST", form }));
  } catch (error) {
    if (error instanceof ProviderError) return null;
    throw error;
  }
}

export function createVkProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "vk",
      name: "VK ID",
      endpoints: {
        authorization: "https://id.vk.com/authorize",
        token: "https://id.vk.com/oauth2/auth",
        userInfo: "https://id.vk.com/oauth2/user_info",
        revocation: "https://id.vk.com/oauth2/revoke",
      },
      defaultScopes: ["email"],
      pkce: true,
      clientAuth: "body",
      refresh: false,
      exchangeParams: (input) => {
        if (!input.deviceId) throw new ProviderError("VK ID callback without device_id");
        // VK ID wants a state on the token request too; it is only echoed back, so a fresh one does.
        return { device_id: input.deviceId, state: randomBytes(24).toString("base64url") };
      },
      getUserProfile: (client, tokens) => fetchVkUser(client, tokens),
    },
    options,
    deps,
  );
}
