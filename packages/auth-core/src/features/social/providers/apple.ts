import { createProviderFromSpec } from "./base.ts";
import { asId, asRecord, asString, isTrue, type JsonRecord, joinName, pickName } from "./fields.ts";
import { readTokenEndpointIdToken } from "./id-token.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Sign in with Apple. Quirks: the callback is a POST form (`response_mode=form_post`); the
 * profile comes only from the id token (no user-info endpoint); the name arrives once, in the
 * `user` form field of the first consent; `email_verified` is the string "true". The client
 * secret is the pre-generated ES256 client-secret JWT.
 */

/** The `user` form field is posted by the browser, so only the name is taken from it, never the email. */
function nameFromUserField(user: unknown): string | null {
  let parsed: unknown = user;
  if (typeof user === "string") {
    try {
      parsed = JSON.parse(user) as unknown;
    } catch {
      return null;
    }
  }
  const name = asRecord(asRecord(parsed)?.name);
  return joinName(name?.firstName, name?.lastName);
}

function profileFromAppleClaims(claims: JsonRecord | null, user?: unknown): ProviderProfile | null {
  const id = asId(claims?.sub);
  if (!claims || id === null) return null;
  const email = asString(claims.email);
  return {
    id,
    email,
    emailVerified: email !== null && isTrue(claims.email_verified),
    name: pickName([nameFromUserField(user), claims.name], email),
    image: null,
  };
}

export function createAppleProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "apple",
      name: "Apple",
      endpoints: {
        authorization: "https://appleid.apple.com/auth/authorize",
        token: "https://appleid.apple.com/auth/token",
        jwks: "https://appleid.apple.com/auth/keys",
        issuer: "https://appleid.apple.com",
        revocation: "https://appleid.apple.com/auth/revoke",
      },
      defaultScopes: ["email", "name"],
      // Apple does not document PKCE for the web flow; the state and client secret protect the code.
      pkce: false,
      clientAuth: "body",
      refresh: true,
      responseMode: "form_post",
      authorizationParams: { response_mode: "form_post" },
      getUserProfile: async (_client, tokens, extras) =>
        profileFromAppleClaims(readTokenEndpointIdToken(tokens.idToken), extras.user),
      idToken: { toProfile: (claims) => profileFromAppleClaims(claims) },
    },
    options,
    deps,
  );
}
