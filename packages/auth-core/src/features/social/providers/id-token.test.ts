import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serverProvider, testDeps } from "#test/oauth-providers.ts";
import { type OAuthServer, startOAuthServer, TEST_CLIENT_ID } from "#test/oauth-server.ts";
import type { OAuthProvider } from "./types.ts";

// Matrix H7/H8: every forged, misdirected or stale id token is refused with its reason.
let server: OAuthServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const claims = { sub: "g-42", email: "ada@example.com", email_verified: true, name: "Ada", nonce: "n-1" };

function google(options: Record<string, unknown> = {}): OAuthProvider {
  return serverProvider(server, "google", options);
}

/** `null`: the caller sends no nonce. */
async function verify(provider: OAuthProvider, token: string, nonce: string | null = "n-1") {
  if (!provider.verifyIdToken) throw new Error("no verifier");
  return provider.verifyIdToken(token, nonce ?? undefined);
}

describe("id-token verification", () => {
  it("accepts a token signed by a published key for our client, and maps its claims", async () => {
    const check = await verify(google(), server.signIdToken("google", claims));
    expect(check).toEqual({
      ok: true,
      profile: { id: "g-42", email: "ada@example.com", emailVerified: true, name: "Ada", image: null },
    });
  });

  it.each([
    ["another client's audience", { aud: "someone-else" }, "wrong_audience"],
    ["another issuer", { iss: "https://evil.example.com" }, "wrong_issuer"],
    ["an expired token", { exp: Math.floor(Date.now() / 1000) - 60 }, "expired"],
    ["no subject", { sub: undefined }, "malformed"],
  ] as const)("refuses %s", async (_label, override, reason) => {
    const check = await verify(google(), server.signIdToken("google", { ...claims, ...override }));
    expect(check).toEqual({ ok: false, reason });
  });

  it("refuses a token issued by another configured provider (mix-up)", async () => {
    const token = server.signIdToken("google", { ...claims, iss: server.issuer("apple") });
    expect(await verify(google(), token)).toEqual({ ok: false, reason: "wrong_issuer" });
  });

  it("refuses a wrong nonce, a missing nonce, and a nonce the token does not carry", async () => {
    const token = server.signIdToken("google", claims);
    expect(await verify(google(), token, "n-2")).toEqual({ ok: false, reason: "wrong_nonce" });
    expect(await verify(google(), token, null)).toEqual({ ok: false, reason: "wrong_nonce" });
    const { nonce: _nonce, ...withoutNonce } = claims;
    const bare = server.signIdToken("google", withoutNonce);
    expect(await verify(google(), bare, "n-1")).toEqual({ ok: false, reason: "wrong_nonce" });
    expect((await verify(google(), bare, null)).ok).toBe(true);
  });

  it.each([
    ["signed by a key the provider never published", { key: "unknown" }],
    ["with alg none", { alg: "none" }],
    ["HS256-signed with the provider's public key", { alg: "HS256-public-key" }],
    [
      "pointing jku/jwk at the attacker's key",
      {
        key: "unknown",
        header: { jku: "https://evil.example.com/jwks", jwk: { kty: "RSA", n: "AQAB", e: "AQAB" } },
      },
    ],
  ] as const)("refuses a token %s", async (_label, options) => {
    const token = server.signIdToken("google", claims, options);
    expect(await verify(google(), token)).toEqual({ ok: false, reason: "invalid_signature" });
  });

  it("refuses a tampered payload and a token that is not a JWT", async () => {
    const [header, , signature] = server.signIdToken("google", claims).split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...claims, sub: "admin", iss: server.issuer("google") }),
    ).toString("base64url");
    expect(await verify(google(), `${header}.${forged}.${signature}`)).toMatchObject({ ok: false });
    expect(await verify(google(), "not-a-jwt")).toEqual({ ok: false, reason: "malformed" });
  });

  it("follows key rotation: a new key is fetched, a dropped key stops verifying", async () => {
    const provider = google();
    const before = server.signIdToken("google", claims);
    expect((await verify(provider, before)).ok).toBe(true);
    server.rotateKeys(true);
    expect((await verify(provider, server.signIdToken("google", claims))).ok).toBe(true);
    expect((await verify(provider, before)).ok).toBe(true);
    server.rotateKeys(false);
    const fresh = server.signIdToken("google", claims);
    expect((await verify(provider, fresh)).ok).toBe(true);
    expect(await verify(provider, before)).toEqual({ ok: false, reason: "invalid_signature" });
  });

  it("fetches the JWKS once for many tokens", async () => {
    const provider = google();
    for (let i = 0; i < 3; i++) await verify(provider, server.signIdToken("google", claims));
    expect(server.requests.filter((request) => request.endpoint === "jwks")).toHaveLength(1);
  });

  it("checks expiry against the injected clock", async () => {
    const token = server.signIdToken("google", claims);
    const later = serverProvider(
      server,
      "google",
      {},
      testDeps({ now: () => new Date(Date.now() + 7200_000) }),
    );
    expect(await verify(later, token)).toEqual({ ok: false, reason: "expired" });
  });

  it("accepts configured extra audiences (native apps) and nothing else", async () => {
    const provider = google({ idTokenAudiences: ["ios-app"] });
    expect((await verify(provider, server.signIdToken("google", { ...claims, aud: "ios-app" }))).ok).toBe(
      true,
    );
    expect(
      (await verify(provider, server.signIdToken("google", { ...claims, aud: TEST_CLIENT_ID }))).ok,
    ).toBe(true);
    expect(await verify(provider, server.signIdToken("google", { ...claims, aud: "android-app" }))).toEqual({
      ok: false,
      reason: "wrong_audience",
    });
  });

  it("throws a ProviderError when the JWKS cannot be fetched (an outage, not an invalid token)", async () => {
    server.fail("google", "jwks", { status: 503 });
    await expect(verify(google(), server.signIdToken("google", claims))).rejects.toMatchObject({
      name: "ProviderError",
    });
  });

  it("is absent when id-token sign-in is disabled for the provider", () => {
    expect(google({ enableIdTokenSignIn: false }).verifyIdToken).toBeUndefined();
  });
});

describe("provider-specific id tokens", () => {
  it("Apple: email_verified arrives as a string", async () => {
    const apple = serverProvider(server, "apple");
    const token = server.signIdToken("apple", {
      sub: "a.1",
      email: "ada@privaterelay.appleid.com",
      email_verified: "true",
    });
    expect(await verify(apple, token, null)).toEqual({
      ok: true,
      profile: {
        id: "a.1",
        email: "ada@privaterelay.appleid.com",
        emailVerified: true,
        name: "ada",
        image: null,
      },
    });
    const unverified = server.signIdToken("apple", {
      sub: "a.1",
      email: "x@example.com",
      email_verified: "false",
    });
    expect(await verify(apple, unverified, null)).toMatchObject({
      ok: true,
      profile: { emailVerified: false },
    });
  });

  it("Microsoft multi-tenant: the issuer must be the template filled with the token's own tid", async () => {
    const tid = "9188040d-6c67-4c5b-b112-36a304b66dad";
    const microsoft = serverProvider(server, "microsoft", {
      endpoints: { ...server.endpoints("microsoft"), issuer: `${server.url}/{tenantid}/v2.0` },
    });
    const good = server.signIdToken("microsoft", { ...claims, tid, iss: `${server.url}/${tid}/v2.0` });
    expect((await verify(microsoft, good)).ok).toBe(true);
    const other = "72f988bf-86f1-41af-91ab-2d7cd011db47";
    const mismatch = server.signIdToken("microsoft", { ...claims, tid, iss: `${server.url}/${other}/v2.0` });
    expect(await verify(microsoft, mismatch)).toEqual({ ok: false, reason: "wrong_issuer" });
    const noTid = server.signIdToken("microsoft", { ...claims, iss: `${server.url}/${tid}/v2.0` });
    expect(await verify(microsoft, noTid)).toEqual({ ok: false, reason: "wrong_issuer" });
  });

  it.each([
    ["a tenant id: exactly that tenant's issuer", "72f988bf-86f1-41af-91ab-2d7cd011db47", false, true],
    // A domain cannot be matched to a token's tid: the code flow's own id token (from the domain
    // tenant's token endpoint) still verifies, but client-supplied id tokens are refused.
    ["a tenant domain: the token's own tenant issuer", "contoso.onmicrosoft.com", true, false],
  ])("Microsoft with %s", async (_label, tenantId, otherTenantAccepted, acceptsClientTokens) => {
    const microsoft = serverProvider(server, "microsoft", {
      tenantId,
      endpoints: { jwks: server.endpoints("microsoft").jwks },
    });
    expect(microsoft.acceptsClientIdTokens !== false).toBe(acceptsClientTokens);
    const issuerOf = (tid: string) => `https://login.microsoftonline.com/${tid}/v2.0`;
    const own = "72f988bf-86f1-41af-91ab-2d7cd011db47";
    const other = "9188040d-6c67-4c5b-b112-36a304b66dad";
    expect(
      (await verify(microsoft, server.signIdToken("microsoft", { ...claims, tid: own, iss: issuerOf(own) })))
        .ok,
    ).toBe(true);
    const foreign = server.signIdToken("microsoft", { ...claims, tid: other, iss: issuerOf(other) });
    expect((await verify(microsoft, foreign)).ok).toBe(otherTenantAccepted);
    const lying = server.signIdToken("microsoft", { ...claims, tid: own, iss: issuerOf(other) });
    expect(await verify(microsoft, lying)).toEqual({ ok: false, reason: "wrong_issuer" });
  });

  it.each([
    ["common", true, true],
    ["organizations", true, false],
    ["consumers", false, true],
  ])(
    "Microsoft %s: work tenant admitted %s, personal-account tenant admitted %s",
    async (tenantId, work, personal) => {
      const microsoft = serverProvider(server, "microsoft", {
        tenantId,
        endpoints: { jwks: server.endpoints("microsoft").jwks },
      });
      expect(microsoft.acceptsClientIdTokens).toBeUndefined();
      const tokenOf = (tid: string) =>
        server.signIdToken("microsoft", {
          ...claims,
          tid,
          iss: `https://login.microsoftonline.com/${tid}/v2.0`,
        });
      const workCheck = await verify(microsoft, tokenOf("72f988bf-86f1-41af-91ab-2d7cd011db47"));
      expect(workCheck.ok ? true : workCheck).toEqual(work ? true : { ok: false, reason: "wrong_issuer" });
      const personalCheck = await verify(microsoft, tokenOf("9188040d-6c67-4c5b-b112-36a304b66dad"));
      expect(personalCheck.ok ? true : personalCheck).toEqual(
        personal ? true : { ok: false, reason: "wrong_issuer" },
      );
    },
  );

  it("LinkedIn, which does not echo nonces: a token without one passes, a different one does not", async () => {
    const linkedin = serverProvider(server, "linkedin");
    const { nonce: _nonce, ...withoutNonce } = claims;
    expect((await verify(linkedin, server.signIdToken("linkedin", withoutNonce), "n-1")).ok).toBe(true);
    const other = server.signIdToken("linkedin", { ...claims, nonce: "n-2" });
    expect(await verify(linkedin, other, "n-1")).toEqual({ ok: false, reason: "wrong_nonce" });
    expect(await verify(linkedin, other, null)).toEqual({ ok: false, reason: "wrong_nonce" });
  });

  it("Facebook: a Limited Login email is never taken as verified", async () => {
    const facebook = serverProvider(server, "facebook");
    const check = await verify(facebook, server.signIdToken("facebook", claims));
    expect(check).toMatchObject({ ok: true, profile: { email: "ada@example.com", emailVerified: false } });
  });
});
