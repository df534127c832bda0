import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_IDENTITY } from "#test/oauth-fixtures.ts";
import { CODE_VERIFIER, REDIRECT_URI, serverProvider, signInThrough } from "#test/oauth-providers.ts";
import { type OAuthServer, startOAuthServer, TEST_CLIENT_ID } from "#test/oauth-server.ts";
import { type BuiltInProviderId, PROVIDER_IDS, type ProviderProfile } from "./types.ts";

let server: OAuthServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const who = DEFAULT_IDENTITY;
const full: ProviderProfile = {
  id: who.id,
  email: who.email,
  emailVerified: true,
  name: who.name,
  image: who.image,
};

interface Expectation {
  /** The authorization URL's `scope`, exactly as sent. */
  scope: string | null;
  pkce: boolean;
  refresh: boolean;
  idToken: boolean;
  profile: ProviderProfile;
  clientParam?: string;
}

/** What each provider must send and map: its documented defaults, quirks and what it cannot tell us. */
const EXPECTED: Record<BuiltInProviderId, Expectation> = {
  apple: {
    scope: "email name",
    pkce: false,
    refresh: true,
    idToken: true,
    profile: { ...full, image: null },
  },
  discord: {
    scope: "identify email",
    pkce: false,
    refresh: true,
    idToken: false,
    profile: {
      ...full,
      image: `https://cdn.discordapp.com/avatars/${who.id}/a_1269e74af4df7417b13759eae50c83dc.gif`,
    },
  },
  facebook: {
    scope: "email public_profile",
    pkce: false,
    refresh: false,
    idToken: true,
    profile: { ...full, emailVerified: false },
  },
  github: { scope: "read:user user:email", pkce: true, refresh: true, idToken: false, profile: full },
  microsoft: {
    scope: "openid profile email User.Read offline_access",
    pkce: true,
    refresh: true,
    idToken: true,
    profile: full,
  },
  google: { scope: "openid email profile", pkce: true, refresh: true, idToken: true, profile: full },
  huggingface: { scope: "openid profile email", pkce: true, refresh: true, idToken: true, profile: full },
  spotify: {
    scope: "user-read-email",
    pkce: true,
    refresh: true,
    idToken: false,
    profile: { ...full, emailVerified: false },
  },
  twitch: { scope: "openid user:read:email", pkce: false, refresh: true, idToken: true, profile: full },
  twitter: {
    scope: "users.read tweet.read offline.access users.email",
    pkce: true,
    refresh: true,
    idToken: false,
    profile: full,
  },
  dropbox: {
    scope: "account_info.read",
    pkce: true,
    refresh: true,
    idToken: false,
    profile: { ...full, id: `dbid:${who.id}` },
  },
  kick: {
    scope: "user:read",
    pkce: true,
    refresh: true,
    idToken: false,
    profile: { ...full, emailVerified: false },
  },
  linkedin: { scope: "openid profile email", pkce: false, refresh: true, idToken: true, profile: full },
  gitlab: { scope: "read_user", pkce: true, refresh: true, idToken: true, profile: full },
  tiktok: {
    scope: "user.info.basic",
    pkce: false,
    refresh: true,
    idToken: false,
    clientParam: "client_key",
    profile: { ...full, email: null, emailVerified: false },
  },
  reddit: {
    scope: "identity",
    pkce: false,
    refresh: true,
    idToken: false,
    profile: {
      ...full,
      email: null,
      emailVerified: false,
      name: "Ada_Lovelace",
      image: `${who.image}?width=256&s=abc`,
    },
  },
  roblox: {
    scope: "openid profile",
    pkce: true,
    refresh: true,
    idToken: true,
    profile: { ...full, email: null, emailVerified: false },
  },
  vk: {
    scope: "email",
    pkce: true,
    refresh: false,
    idToken: false,
    profile: { ...full, emailVerified: false },
  },
  zoom: { scope: null, pkce: true, refresh: true, idToken: false, profile: full },
};

describe.each(PROVIDER_IDS.map((id) => [id, EXPECTED[id]] as const))("%s provider", (id, expected) => {
  it("builds the authorization URL with its default scopes, client, redirect URI, state and PKCE", () => {
    const provider = serverProvider(server, id);
    const url = provider.createAuthorizationURL({
      state: "s".repeat(32),
      codeVerifier: CODE_VERIFIER,
      redirectURI: REDIRECT_URI,
      scopes: [],
    });
    expect(`${url.origin}${url.pathname}`).toBe(server.endpoints(id).authorization);
    const params = url.searchParams;
    expect(params.get("response_type")).toBe("code");
    expect(params.get(expected.clientParam ?? "client_id")).toBe(TEST_CLIENT_ID);
    expect(params.get("redirect_uri")).toBe(REDIRECT_URI);
    expect(params.get("state")).toBe("s".repeat(32));
    expect(params.get("scope")).toBe(expected.scope);
    if (expected.pkce) {
      expect(params.get("code_challenge")).toBe(
        createHash("sha256").update(CODE_VERIFIER).digest("base64url"),
      );
      expect(params.get("code_challenge_method")).toBe("S256");
    } else {
      expect(params.has("code_challenge")).toBe(false);
    }
    expect(provider.responseMode).toBe(id === "apple" ? "form_post" : "query");
  });

  it("exchanges the code over HTTP and maps the provider's user info to the profile", async () => {
    const provider = serverProvider(server, id);
    const { result, tokens } = await signInThrough(server, provider);
    expect(tokens.accessToken).toMatch(/^at_/);
    expect(tokens.tokenType).toBe("Bearer");
    expect(tokens.accessTokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    const profile = await provider.getUserProfile(
      tokens,
      result.form?.user ? { user: result.form.user } : {},
    );
    expect(profile).toEqual(expected.profile);
    const exchange = server.lastRequest(id, "token");
    expect(exchange?.form.code_verifier).toBe(expected.pkce ? CODE_VERIFIER : undefined);
  });

  it(expected.refresh ? "refreshes the access token" : "has no refresh grant", async () => {
    const provider = serverProvider(server, id);
    if (!expected.refresh) {
      expect(provider.refreshAccessToken).toBeUndefined();
      return;
    }
    const { tokens } = await signInThrough(server, provider);
    const refreshed = await provider.refreshAccessToken?.(tokens.refreshToken ?? "");
    expect(refreshed?.accessToken).toMatch(/^at_/);
    expect(refreshed?.accessToken).not.toBe(tokens.accessToken);
    expect(server.lastRequest(id, "token")?.form.grant_type).toBe("refresh_token");
    // The server rotated the refresh token: the old one is refused, and the refusal is a ProviderError.
    await expect(provider.refreshAccessToken?.(tokens.refreshToken ?? "")).rejects.toMatchObject({
      name: "ProviderError",
      providerError: "invalid_grant",
    });
  });

  it(expected.idToken ? "offers id-token verification" : "offers no id-token verification", () => {
    expect(typeof serverProvider(server, id).verifyIdToken).toBe(expected.idToken ? "function" : "undefined");
  });
});

describe("every provider", () => {
  it("returns a null profile when the user-info endpoint fails", async () => {
    for (const id of PROVIDER_IDS.filter((each) => each !== "apple")) {
      const provider = serverProvider(server, id);
      const { tokens } = await signInThrough(server, provider);
      server.fail(id, "userinfo", { status: 500, body: { error: "server_error" } });
      const { idToken: _ignored, ...withoutIdToken } = tokens;
      expect(await provider.getUserProfile({ ...withoutIdToken, idToken: null }, {}), id).toBeNull();
    }
  });

  it("combines default, configured and requested scopes once each, or only the latter two when defaults are off", () => {
    const input = {
      state: "s",
      codeVerifier: CODE_VERIFIER,
      redirectURI: REDIRECT_URI,
      scopes: ["repo", "read:user"],
    };
    const withDefaults = serverProvider(server, "github", { scope: ["gist"] }).createAuthorizationURL(input);
    expect(withDefaults.searchParams.get("scope")).toBe("read:user user:email gist repo");
    const without = serverProvider(server, "github", { scope: ["gist"], disableDefaultScope: true });
    expect(without.createAuthorizationURL(input).searchParams.get("scope")).toBe("gist repo read:user");
    const tiktok = serverProvider(server, "tiktok", { scope: ["video.list"] }).createAuthorizationURL(input);
    expect(tiktok.searchParams.get("scope")).toBe("user.info.basic,video.list,repo,read:user");
  });
});
