import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildFixture, DEFAULT_IDENTITY } from "#test/oauth-fixtures.ts";
import {
  CODE_VERIFIER,
  REDIRECT_URI,
  serverProvider,
  signInThrough,
  testDeps,
} from "#test/oauth-providers.ts";
import {
  type OAuthServer,
  startOAuthServer,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
} from "#test/oauth-server.ts";
import { discordAvatarURL } from "./discord.ts";
import { createProviders } from "./index.ts";
import { PROVIDER_IDS, providerOptionsSchema } from "./types.ts";

let server: OAuthServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const basicCredentials = `Basic ${Buffer.from(`${TEST_CLIENT_ID}:${TEST_CLIENT_SECRET}`).toString("base64")}`;
const START = { state: "s", codeVerifier: CODE_VERIFIER, redirectURI: REDIRECT_URI, scopes: [] };

/** The documented production authorization endpoints, used when no override is configured. */
const REAL_AUTHORIZATION: Record<(typeof PROVIDER_IDS)[number], string> = {
  apple: "https://appleid.apple.com/auth/authorize",
  discord: "https://discord.com/oauth2/authorize",
  facebook: "https://www.facebook.com/v21.0/dialog/oauth",
  github: "https://github.com/login/oauth/authorize",
  microsoft: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
  google: "https://accounts.google.com/o/oauth2/v2/auth",
  huggingface: "https://huggingface.co/oauth/authorize",
  spotify: "https://accounts.spotify.com/authorize",
  twitch: "https://id.twitch.tv/oauth2/authorize",
  twitter: "https://x.com/i/oauth2/authorize",
  dropbox: "https://www.dropbox.com/oauth2/authorize",
  kick: "https://id.kick.com/oauth/authorize",
  linkedin: "https://www.linkedin.com/oauth/v2/authorization",
  gitlab: "https://gitlab.com/oauth/authorize",
  tiktok: "https://www.tiktok.com/v2/auth/authorize/",
  reddit: "https://www.reddit.com/api/v1/authorize",
  roblox: "https://apis.roblox.com/oauth/v1/authorize",
  vk: "https://id.vk.com/authorize",
  zoom: "https://zoom.us/oauth/authorize",
};

describe("default endpoints", () => {
  it.each(PROVIDER_IDS)("%s points at the provider's real authorization endpoint", (id) => {
    const options = providerOptionsSchema.parse({ clientId: "c" });
    const provider = createProviders(
      { socialProviders: { [id]: options }, genericOAuth: [] },
      testDeps(),
    ).get(id);
    const url = provider?.createAuthorizationURL(START);
    expect(url && `${url.origin}${url.pathname}`).toBe(REAL_AUTHORIZATION[id]);
  });

  it("Microsoft puts the configured tenant in its URLs", () => {
    const options = providerOptionsSchema.parse({ clientId: "c", tenantId: "contoso.onmicrosoft.com" });
    const provider = createProviders(
      { socialProviders: { microsoft: options }, genericOAuth: [] },
      testDeps(),
    );
    expect(provider.get("microsoft")?.createAuthorizationURL(START).pathname).toBe(
      "/contoso.onmicrosoft.com/oauth2/v2.0/authorize",
    );
  });
});

describe("client authentication at the token endpoint", () => {
  it.each(["reddit", "spotify", "zoom", "twitter"] as const)(
    "%s sends HTTP basic and no secret in the form",
    async (id) => {
      await signInThrough(server, serverProvider(server, id));
      const request = server.lastRequest(id, "token");
      expect(request?.headers.authorization).toBe(basicCredentials);
      expect(request?.form.client_secret).toBeUndefined();
    },
  );

  it("TikTok names the client client_key in the token request", async () => {
    await signInThrough(server, serverProvider(server, "tiktok"));
    const request = server.lastRequest("tiktok", "token");
    expect(request?.form).toMatchObject({ client_key: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET });
    expect(request?.form.client_id).toBeUndefined();
  });

  it("a public client (no secret) sends only its id, with PKCE", async () => {
    await signInThrough(server, serverProvider(server, "twitter", { clientSecret: undefined }));
    const request = server.lastRequest("twitter", "token");
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.form).toMatchObject({ client_id: TEST_CLIENT_ID, code_verifier: CODE_VERIFIER });
  });
});

describe("VK ID device_id", () => {
  it("repeats the callback's device_id in the token request", async () => {
    const vk = serverProvider(server, "vk");
    const { result, tokens } = await signInThrough(server, vk);
    expect(result.deviceId).toMatch(/^device_/);
    expect(server.lastRequest("vk", "token")?.form.device_id).toBe(result.deviceId);
    expect(await vk.getUserProfile(tokens, {})).toMatchObject({ id: DEFAULT_IDENTITY.id });
    expect(server.lastRequest("vk", "userinfo")?.form).toMatchObject({ client_id: TEST_CLIENT_ID });
  });

  it("refuses to exchange a code without device_id, without calling VK", async () => {
    const vk = serverProvider(server, "vk");
    const exchange = vk.exchangeCode({ code: "c", codeVerifier: CODE_VERIFIER, redirectURI: REDIRECT_URI });
    await expect(exchange).rejects.toMatchObject({ name: "ProviderError" });
    expect(server.lastRequest("vk", "token")).toBeNull();
  });
});

describe("GitHub emails", () => {
  it("takes a private primary address and its verification from /user/emails, with a User-Agent", async () => {
    server.setIdentity("github", { email: "private@example.com", emailVerified: false });
    const github = serverProvider(server, "github");
    const { tokens } = await signInThrough(server, github);
    expect(await github.getUserProfile(tokens, {})).toMatchObject({
      email: "private@example.com",
      emailVerified: false,
    });
    expect(server.lastRequest("github", "emails")?.headers["user-agent"]).toBe("tessera-auth");
    expect(server.lastRequest("github", "userinfo")?.headers["user-agent"]).toBe("tessera-auth");
  });

  it("has no email when /user/emails fails and the address is private", async () => {
    const github = serverProvider(server, "github");
    const { tokens } = await signInThrough(server, github);
    server.fail("github", "emails", { status: 403, body: { message: "Resource not accessible" } });
    expect(await github.getUserProfile(tokens, {})).toMatchObject({
      id: DEFAULT_IDENTITY.id,
      email: null,
      emailVerified: false,
    });
  });

  it("turns an error answered with HTTP 200 by the token endpoint into a ProviderError", async () => {
    server.fail("github", "token", {
      status: 200,
      body: { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." },
    });
    await expect(signInThrough(server, serverProvider(server, "github"))).rejects.toMatchObject({
      name: "ProviderError",
      providerError: "bad_verification_code",
      providerErrorDescription: "The code passed is incorrect or expired.",
    });
  });
});

describe("Apple", () => {
  it("takes the name from the first consent's user JSON, never its email", async () => {
    const apple = serverProvider(server, "apple");
    const { result, tokens } = await signInThrough(server, apple);
    const forged = JSON.stringify({ name: { firstName: "Ada", lastName: "L" }, email: "victim@example.com" });
    expect(await apple.getUserProfile(tokens, { user: forged })).toMatchObject({
      name: "Ada L",
      email: "ada@example.com",
    });
    expect(result.form?.user).toBeDefined();
    const again = await signInThrough(server, apple);
    expect(again.result.form?.user).toBeUndefined();
    expect(await apple.getUserProfile(again.tokens, {})).toMatchObject({
      name: "ada",
      email: "ada@example.com",
    });
  });

  it("puts response_mode=form_post and the nonce in the authorization URL", () => {
    const url = serverProvider(server, "apple").createAuthorizationURL({ ...START, nonce: "n-9" });
    expect(url.searchParams.get("response_mode")).toBe("form_post");
    expect(url.searchParams.get("nonce")).toBe("n-9");
  });
});

describe("provider failures", () => {
  it("a PKCE verifier mismatch fails the exchange with the provider's error", async () => {
    await expect(
      signInThrough(server, serverProvider(server, "google"), { codeVerifier: "W".repeat(128) }),
    ).rejects.toMatchObject({ name: "ProviderError", providerError: "invalid_grant" });
  });

  it("a hanging token endpoint fails within the configured bound", async () => {
    server.fail("google", "token", { delayMs: 2000, status: 200, body: {} });
    const google = serverProvider(server, "google", {}, testDeps({ timeoutMs: 200 }));
    const started = Date.now();
    await expect(signInThrough(server, google)).rejects.toMatchObject({ name: "ProviderError" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("a token response without access_token is refused", async () => {
    server.fail("discord", "token", { status: 200, body: { token_type: "Bearer" } });
    await expect(signInThrough(server, serverProvider(server, "discord"))).rejects.toMatchObject({
      name: "ProviderError",
      message: "token response without access_token",
    });
  });

  it("an oversized answer is refused: no profile, no tokens", async () => {
    const discord = serverProvider(server, "discord");
    const { tokens } = await signInThrough(server, discord);
    server.fail("discord", "userinfo", { status: 200, body: { id: "1", padding: "x".repeat(1_100_000) } });
    expect(await discord.getUserProfile(tokens, {})).toBeNull();
    server.fail("discord", "token", {
      status: 200,
      body: { access_token: "a", padding: "x".repeat(1_100_000) },
    });
    await expect(signInThrough(server, discord)).rejects.toMatchObject({ name: "ProviderError" });
  });

  it("a profile without an id is no profile", async () => {
    const fixture = buildFixture("discord");
    server.setProfile("discord", { ...fixture, userInfo: { username: "no-id" } });
    const discord = serverProvider(server, "discord");
    const { tokens } = await signInThrough(server, discord);
    expect(await discord.getUserProfile(tokens, {})).toBeNull();
  });

  it("drops non-http image URLs a provider sends", async () => {
    server.setIdentity("gitlab", { image: "javascript:alert(1)" });
    const gitlab = serverProvider(server, "gitlab");
    const { tokens } = await signInThrough(server, gitlab);
    expect(await gitlab.getUserProfile(tokens, {})).toMatchObject({ image: null });
  });
});

describe("authorization parameters", () => {
  it("sends login_hint and nonce only to providers that understand them, and the configured prompt", () => {
    const google = serverProvider(server, "google", { prompt: "select_account" });
    const url = google.createAuthorizationURL({ ...START, loginHint: "ada@example.com", nonce: "n-1" });
    expect(url.searchParams.get("login_hint")).toBe("ada@example.com");
    expect(url.searchParams.get("nonce")).toBe("n-1");
    expect(url.searchParams.get("prompt")).toBe("select_account");
    expect(url.searchParams.get("access_type")).toBe("offline");
    const discord = serverProvider(server, "discord").createAuthorizationURL({
      ...START,
      loginHint: "a",
      nonce: "n",
    });
    expect(discord.searchParams.has("login_hint")).toBe(false);
    expect(discord.searchParams.has("nonce")).toBe(false);
  });

  it("asks Twitch for its optional claims, Reddit for a permanent grant, Dropbox for offline access", () => {
    const twitch = serverProvider(server, "twitch").createAuthorizationURL(START);
    expect(JSON.parse(twitch.searchParams.get("claims") ?? "{}")).toMatchObject({
      id_token: { email: null, email_verified: null },
    });
    expect(serverProvider(server, "reddit").createAuthorizationURL(START).searchParams.get("duration")).toBe(
      "permanent",
    );
    const dropbox = serverProvider(server, "dropbox").createAuthorizationURL(START);
    expect(dropbox.searchParams.get("token_access_type")).toBe("offline");
  });

  it("X without the email scope grant yields no email", async () => {
    server.setIdentity("twitter", { email: null });
    const twitter = serverProvider(server, "twitter");
    const { tokens } = await signInThrough(server, twitter);
    expect(await twitter.getUserProfile(tokens, {})).toMatchObject({ email: null, emailVerified: false });
    expect(server.lastRequest("twitter", "userinfo")?.query["user.fields"]).toBe(
      "profile_image_url,confirmed_email",
    );
  });
});

describe("Discord avatars", () => {
  it.each([
    [
      "an uploaded avatar",
      "80351110224678912",
      "8342729096ea3675442027381ff50dfe",
      "0",
      "avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    ],
    ["an animated avatar", "80351110224678912", "a_abc", "0", "avatars/80351110224678912/a_abc.gif"],
    [
      "a new username without avatar",
      "80351110224678912",
      null,
      "0",
      `embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`,
    ],
    ["a legacy username without avatar", "80351110224678912", null, "1337", "embed/avatars/2.png"],
  ])("builds the CDN URL for %s", (_label, id, avatar, discriminator, path) => {
    expect(discordAvatarURL(id, avatar, discriminator)).toBe(`https://cdn.discordapp.com/${path}`);
  });
});
