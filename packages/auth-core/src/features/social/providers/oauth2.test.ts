import { describe, expect, it } from "vitest";
import { asImageURL, pickName, profileFromOidcClaims } from "./fields.ts";
import { normalizeTokens } from "./oauth2.ts";

const NOW = new Date("2026-01-01T00:00:00.000Z");

describe("normalizeTokens", () => {
  it("maps a standard token response, with lifetimes from the injected clock", () => {
    expect(
      normalizeTokens(
        {
          access_token: "at",
          refresh_token: "rt",
          id_token: "it",
          expires_in: 3600,
          refresh_token_expires_in: "7200",
          scope: "openid email",
          token_type: "Bearer",
        },
        NOW,
      ),
    ).toEqual({
      accessToken: "at",
      refreshToken: "rt",
      idToken: "it",
      accessTokenExpiresAt: new Date("2026-01-01T01:00:00.000Z"),
      refreshTokenExpiresAt: new Date("2026-01-01T02:00:00.000Z"),
      scopes: ["openid", "email"],
      tokenType: "Bearer",
    });
  });

  it("reads comma-separated and array scopes and TikTok's refresh_expires_in; ignores nonsense lifetimes", () => {
    const tiktok = normalizeTokens(
      { access_token: "a", scope: "user.info.basic,video.list", refresh_expires_in: 60 },
      NOW,
    );
    expect(tiktok.scopes).toEqual(["user.info.basic", "video.list"]);
    expect(tiktok.refreshTokenExpiresAt).toEqual(new Date("2026-01-01T00:01:00.000Z"));
    const odd = normalizeTokens({ access_token: "a", scope: ["a", 1, "b"], expires_in: -5 }, NOW);
    expect(odd).toMatchObject({
      scopes: ["a", "b"],
      accessTokenExpiresAt: null,
      refreshToken: null,
      idToken: null,
    });
  });

  it("throws a ProviderError carrying the provider's error, or for a missing access token", () => {
    expect(() => normalizeTokens({ error: "invalid_grant", error_description: "expired code" }, NOW)).toThrow(
      expect.objectContaining({ providerError: "invalid_grant", providerErrorDescription: "expired code" }),
    );
    expect(() => normalizeTokens({ token_type: "Bearer" }, NOW)).toThrow(
      "token response without access_token",
    );
    expect(() => normalizeTokens(null, NOW)).toThrow("token response without access_token");
  });
});

describe("profile fields", () => {
  it("keeps only http(s) image URLs", () => {
    expect(asImageURL("https://x.example/a.png")).toBe("https://x.example/a.png");
    expect(asImageURL("javascript:alert(1)")).toBeNull();
    expect(asImageURL("data:image/png;base64,AAAA")).toBeNull();
    expect(asImageURL("not a url")).toBeNull();
  });

  it("falls back from name candidates to the email's local part, then to an empty name", () => {
    expect(pickName([null, " ", "Ada"], "a@x.io")).toBe("Ada");
    expect(pickName([undefined], "ada@x.io")).toBe("ada");
    expect(pickName([], null)).toBe("");
  });

  it("counts an OIDC email as verified only when email_verified says so", () => {
    expect(profileFromOidcClaims({ sub: "1", email: "a@x.io" })?.emailVerified).toBe(false);
    expect(profileFromOidcClaims({ sub: "1", email: "a@x.io", email_verified: "true" })?.emailVerified).toBe(
      true,
    );
    expect(profileFromOidcClaims({ sub: "1", email_verified: true })?.emailVerified).toBe(false);
    expect(profileFromOidcClaims({ email: "a@x.io" })).toBeNull();
  });
});
