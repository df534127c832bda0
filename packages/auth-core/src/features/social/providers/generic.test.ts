import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CODE_VERIFIER,
  genericOptions,
  REDIRECT_URI,
  signInThrough,
  testDeps,
} from "#test/oauth-providers.ts";
import { type OAuthServer, startOAuthServer, TEST_CLIENT_ID } from "#test/oauth-server.ts";
import { createProviders } from "./index.ts";
import {
  type GenericProviderOptions,
  genericProviderOptionsSchema,
  type OAuthProvider,
  providerOptionsSchema,
} from "./types.ts";

let server: OAuthServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const START = { state: "s", codeVerifier: CODE_VERIFIER, redirectURI: REDIRECT_URI, scopes: [] };

function generic(options: GenericProviderOptions): OAuthProvider {
  const provider = createProviders({ socialProviders: {}, genericOAuth: [options] }, testDeps()).get(
    options.providerId,
  );
  if (!provider) throw new Error("not built");
  return provider;
}

function byDiscovery(id: string, extra: Record<string, unknown> = {}): OAuthProvider {
  return generic(genericOptions({ providerId: id, discoveryUrl: server.discoveryUrl(id), ...extra }));
}

describe("generic provider by discovery", () => {
  it("loads the discovery document once, then signs in with PKCE and maps OIDC claims", async () => {
    const provider = byDiscovery("keycloak");
    expect(() => provider.createAuthorizationURL(START)).toThrow(/await prepare\(\) first/);
    await provider.prepare?.();
    await provider.prepare?.();
    const url = provider.createAuthorizationURL({ ...START, nonce: "n-1", loginHint: "ada@example.com" });
    expect(`${url.origin}${url.pathname}`).toBe(server.endpoints("keycloak").authorization);
    expect(url.searchParams.get("scope")).toBe("openid email profile");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("nonce")).toBe("n-1");
    expect(url.searchParams.get("login_hint")).toBe("ada@example.com");
    const { tokens } = await signInThrough(server, provider);
    expect(await provider.getUserProfile(tokens, {})).toEqual({
      id: "1234567890",
      email: "ada@example.com",
      emailVerified: true,
      name: "Ada Lovelace",
      image: "https://images.example.com/ada.png",
    });
    const refreshed = await provider.refreshAccessToken?.(tokens.refreshToken ?? "");
    expect(refreshed?.accessToken).toMatch(/^at_/);
    const discoveries = server.requests.filter(
      (request) => request.endpoint === ".well-known/openid-configuration",
    );
    expect(discoveries).toHaveLength(1);
  });

  it("uses client_secret_post when discovery offers it", async () => {
    await signInThrough(server, await prepared(byDiscovery("okta")));
    const request = server.lastRequest("okta", "token");
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.form.client_id).toBe(TEST_CLIENT_ID);
  });

  it("refuses a discovery document whose issuer is not the configured one (ASVS 10.5.3), and retries later", async () => {
    const provider = byDiscovery("auth0", { endpoints: { issuer: "https://other.example.com" } });
    await expect(provider.prepare?.()).rejects.toMatchObject({ name: "ProviderError" });
    expect(() => provider.createAuthorizationURL(START)).toThrow();
    server.fail("authentik", ".well-known/openid-configuration", { status: 503, times: 1 });
    const flaky = byDiscovery("authentik");
    await expect(flaky.prepare?.()).rejects.toMatchObject({ name: "ProviderError" });
    await flaky.prepare?.();
    expect(flaky.createAuthorizationURL(START).searchParams.get("client_id")).toBe(TEST_CLIENT_ID);
  });

  it("lets explicit endpoints win over discovery", async () => {
    const provider = byDiscovery("zitadel", {
      endpoints: { authorization: "https://login.example.com/authorize" },
    });
    await provider.prepare?.();
    expect(provider.createAuthorizationURL(START).host).toBe("login.example.com");
  });

  it("verifies id tokens with the discovered JWKS and issuer", async () => {
    const provider = byDiscovery("dex");
    const token = server.signIdToken("dex", { sub: "d-1", email: "d@example.com", email_verified: false });
    expect(await provider.verifyIdToken?.(token, undefined)).toMatchObject({
      ok: true,
      profile: { id: "d-1", emailVerified: false },
    });
    const foreign = server.signIdToken("dex", { sub: "d-1", iss: server.issuer("keycloak") });
    expect(await provider.verifyIdToken?.(foreign, undefined)).toEqual({ ok: false, reason: "wrong_issuer" });
  });

  it("refuses a userinfo answer about someone other than the id token's subject", async () => {
    const fixture = server.fixture("pingfed");
    server.setProfile("pingfed", { ...fixture, userInfo: { sub: "someone-else", email: "x@example.com" } });
    const provider = await prepared(byDiscovery("pingfed"));
    const { tokens } = await signInThrough(server, provider);
    expect(tokens.idToken).not.toBeNull();
    expect(await provider.getUserProfile(tokens, {})).toBeNull();
  });

  it("treats emails as verified only when configured to", async () => {
    server.setIdentity("casdoor", { emailVerified: false });
    const plain = byDiscovery("casdoor");
    const trusted = byDiscovery("casdoor", { emailsAreVerified: true });
    for (const [provider, verified] of [
      [plain, false],
      [trusted, true],
    ] as const) {
      const { tokens } = await signInThrough(server, await prepared(provider));
      expect(await provider.getUserProfile(tokens, {})).toMatchObject({ emailVerified: verified });
    }
  });
});

describe("generic provider by explicit endpoints", () => {
  it("works without discovery, with PKCE off and its own default scopes", async () => {
    const endpoints = server.endpoints("oauth2-only");
    const provider = generic(
      genericOptions({
        providerId: "oauth2-only",
        endpoints: {
          authorization: endpoints.authorization,
          token: endpoints.token,
          userInfo: endpoints.userInfo,
        },
        pkce: false,
        defaultScopes: ["read"],
      }),
    );
    const url = provider.createAuthorizationURL(START);
    expect(url.searchParams.get("scope")).toBe("read");
    expect(url.searchParams.has("code_challenge")).toBe(false);
    const { tokens } = await signInThrough(server, provider);
    expect(await provider.getUserProfile(tokens, {})).toMatchObject({ id: "1234567890" });
    expect(server.lastRequest("oauth2-only", "token")?.form.code_verifier).toBeUndefined();
    expect(provider.verifyIdToken).toBeUndefined();
  });
});

describe("createProviders", () => {
  it("builds only the configured providers", () => {
    const registry = createProviders(
      {
        socialProviders: { github: providerOptionsSchema.parse({ clientId: "c" }), google: undefined },
        genericOAuth: [
          genericOptions({
            providerId: "corp",
            discoveryUrl: "https://idp.example.com/.well-known/openid-configuration",
          }),
        ],
      },
      testDeps(),
    );
    expect(registry.ids()).toEqual(["github", "corp"]);
    expect(registry.get("google")).toBeUndefined();
    expect(registry.get("github")?.name).toBe("GitHub");
  });

  it("refuses a generic provider without discovery or endpoints, naming it", () => {
    const options = genericOptions({ providerId: "broken" });
    expect(() => createProviders({ socialProviders: {}, genericOAuth: [options] }, testDeps())).toThrow(
      'genericOAuth "broken": set discoveryUrl, or endpoints.authorization and endpoints.token',
    );
  });

  it("refuses the same generic id twice, and a generic id that is a built-in one", () => {
    const options = genericOptions({ providerId: "corp", discoveryUrl: "https://idp.example.com/x" });
    expect(() =>
      createProviders({ socialProviders: {}, genericOAuth: [options, options] }, testDeps()),
    ).toThrow('genericOAuth: provider id "corp" is configured twice');
    expect(genericProviderOptionsSchema.safeParse({ clientId: "c", providerId: "github" }).success).toBe(
      false,
    );
  });
});

async function prepared(provider: OAuthProvider): Promise<OAuthProvider> {
  await provider.prepare?.();
  return provider;
}
