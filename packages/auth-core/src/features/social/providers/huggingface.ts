import { createProviderFromSpec } from "./base.ts";
import { asRecord, profileFromOidcClaims } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions } from "./types.ts";

/** Hugging Face (OpenID Connect): standard userinfo claims; `preferred_username` when there is no name. */
export function createHuggingfaceProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "huggingface",
      name: "Hugging Face",
      endpoints: {
        authorization: "https://huggingface.co/oauth/authorize",
        token: "https://huggingface.co/oauth/token",
        userInfo: "https://huggingface.co/oauth/userinfo",
        jwks: "https://huggingface.co/oauth/jwks",
        issuer: "https://huggingface.co",
      },
      defaultScopes: ["openid", "profile", "email"],
      pkce: true,
      clientAuth: "body",
      refresh: true,
      mapUserInfo: (info) => profileFromOidcClaims(asRecord(info)),
      // Hugging Face does not document nonce support.
      idToken: { toProfile: profileFromOidcClaims, echoesNonce: false },
    },
    options,
    deps,
  );
}
