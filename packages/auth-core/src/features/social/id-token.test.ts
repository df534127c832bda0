import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp } from "#test/browser.ts";
import { countDocs, createSocialAuth, newBrowser, providerConfig, useSocialTestbed } from "#test/social.ts";

/** ID-token sign-in and linking (docs/decisions/ "Link by ID token"). */
const { server, t } = useSocialTestbed(["google", "github"]);

const INVALID = { code: "INVALID_ID_TOKEN", message: "invalid token" };
let nextSub = 5000;

function claimsFor(email: string, extra: Record<string, unknown> = {}) {
  return {
    sub: String(nextSub++),
    email,
    email_verified: true,
    name: "Id Token",
    nonce: "n-0S6_WzA2Mj",
    ...extra,
  };
}

async function signInWithIdToken(idToken: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const browser = newBrowser(t);
  const res = await browser.post<Record<string, unknown>>("/sign-in/social", {
    provider: "google",
    idToken,
    ...extra,
  });
  return { browser, res };
}

describe("POST /sign-in/social with idToken", () => {
  it("creates the user and a session: {redirect:false, token, url, user}, the id token stored encrypted", async () => {
    const claims = claimsFor("Token.User@Example.com");
    const token = server.signIdToken("google", claims);
    const before = await countDocs(t);
    const { browser, res } = await signInWithIdToken(
      { token, nonce: "n-0S6_WzA2Mj", accessToken: "ya29.client-held", expiresAt: Date.now() + 3600_000 },
      { callbackURL: "/home" },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      redirect: false,
      url: "/home",
      user: { email: "token.user@example.com", emailVerified: true },
    });
    expect(res.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await countDocs(t)).toEqual({
      users: before.users + 1,
      accounts: before.accounts + 1,
      sessions: before.sessions + 1,
    });
    const account = await t.db
      .collection("accounts")
      .findOne({ providerId: "google", accountId: claims.sub });
    expect(account?.idToken).toMatch(/^v1\./);
    expect(JSON.stringify(account)).not.toContain(token);
    expect(JSON.stringify(account)).not.toContain("ya29.client-held");
    // Signing in again with a new token for the same subject reaches the same user.
    const again = await signInWithIdToken({
      token: server.signIdToken("google", claims),
      nonce: "n-0S6_WzA2Mj",
    });
    expect((again.res.body.user as { id: string }).id).toBe((res.body.user as { id: string }).id);
  });

  it("keeps the client's access token for /get-access-token, with its expiry", async () => {
    const expiresAt = Date.now() + 3600_000;
    const { browser, res } = await signInWithIdToken({
      token: server.signIdToken("google", claimsFor("client-token@example.com")),
      nonce: "n-0S6_WzA2Mj",
      accessToken: "ya29.from-the-native-sdk",
      expiresAt,
    });
    expect(res.status).toBe(200);
    const token = await browser.post<{ accessToken: string; accessTokenExpiresAt: string }>(
      "/get-access-token",
      {
        providerId: "google",
      },
    );
    expect(token.status).toBe(200);
    expect(token.body.accessToken).toBe("ya29.from-the-native-sdk");
    expect(new Date(token.body.accessTokenExpiresAt).getTime()).toBe(expiresAt);
  });

  it.each([
    ["a wrong audience", { aud: "someone-elses-client" }, {}],
    ["a wrong issuer", { iss: "https://evil.example" }, {}],
    [
      "an expired token",
      { exp: Math.floor(Date.now() / 1000) - 600, iat: Math.floor(Date.now() / 1000) - 4200 },
      {},
    ],
    ["a mismatched nonce", { nonce: "someone-elses-nonce" }, {}],
    ["an unknown signing key", {}, { key: "unknown" }],
    ["alg none", {}, { alg: "none" }],
    ["HS256 keyed with the public key", {}, { alg: "HS256-public-key" }],
  ] as const)(
    "refuses %s with 401 invalid token, database unchanged (H7)",
    async (_label, claims, options) => {
      const token = server.signIdToken("google", claimsFor("forged@example.com", claims), options);
      const before = await countDocs(t);
      const { browser, res } = await signInWithIdToken({ token, nonce: "n-0S6_WzA2Mj" });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
      expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
      expect(await countDocs(t)).toEqual(before);
    },
  );

  it("refuses garbage and a provider without id tokens", async () => {
    const garbage = await signInWithIdToken({ token: "not.a.jwt" });
    expect(garbage.res.status).toBe(401);
    expect(garbage.res.body).toEqual(INVALID);
    const github = await newBrowser(t).post("/sign-in/social", {
      provider: "github",
      idToken: { token: "x.y.z" },
    });
    expect(github.status).toBe(404);
    expect(github.body).toEqual({ code: "ID_TOKEN_NOT_SUPPORTED", message: "id_token not supported" });
  });

  it("refuses when id-token sign-in is disabled for the provider", async () => {
    const off = await createSocialAuth(server, [], {
      socialProviders: { google: providerConfig(server, "google", { enableIdTokenSignIn: false }) },
    });
    try {
      const token = server.signIdToken("google", claimsFor("off@example.com"));
      const res = await newBrowser(off).post("/sign-in/social", { provider: "google", idToken: { token } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "ID_TOKEN_NOT_SUPPORTED", message: "id_token not supported" });
      expect(await countDocs(off)).toEqual({ users: 0, accounts: 0, sessions: 0 });
    } finally {
      await off.close();
    }
  });

  it("a token without an email → 401 User email not found", async () => {
    const { email: _omit, email_verified: _v, ...claims } = claimsFor("x@example.com");
    const before = await countDocs(t);
    const { res } = await signInWithIdToken({
      token: server.signIdToken("google", claims),
      nonce: "n-0S6_WzA2Mj",
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "USER_EMAIL_NOT_FOUND", message: "User email not found" });
    expect(await countDocs(t)).toEqual(before);
  });

  it("links to an existing verified user, and never to an unverified one (H9)", async () => {
    const owner = newBrowser(t);
    await signUp(owner, { email: "verified-owner@example.com" });
    await t.db
      .collection("users")
      .updateOne({ email: "verified-owner@example.com" }, { $set: { emailVerified: true } });
    await signUp(newBrowser(t), { email: "squatted@example.com" });
    const before = await countDocs(t);
    const linked = await signInWithIdToken({
      token: server.signIdToken("google", claimsFor("verified-owner@example.com")),
      nonce: "n-0S6_WzA2Mj",
    });
    expect(linked.res.status).toBe(200);
    expect((linked.res.body.user as { email: string }).email).toBe("verified-owner@example.com");
    const refused = await signInWithIdToken({
      token: server.signIdToken("google", claimsFor("squatted@example.com")),
      nonce: "n-0S6_WzA2Mj",
    });
    expect(refused.res.status).toBe(401);
    expect(refused.res.body).toEqual({
      code: "LINKING_NOT_ALLOWED",
      message: "Account not linked - linking not allowed",
    });
    expect(await countDocs(t)).toEqual({
      users: before.users,
      accounts: before.accounts + 1,
      sessions: before.sessions + 1,
    });
  });

  it("sign-up disabled → 401 signup disabled; requestSignUp opens disableImplicitSignUp", async () => {
    const closed = await createSocialAuth(server, [], {
      socialProviders: { google: providerConfig(server, "google", { disableImplicitSignUp: true }) },
    });
    try {
      const token = server.signIdToken("google", claimsFor("implicit@example.com"));
      const idToken = { token, nonce: "n-0S6_WzA2Mj" };
      const refused = await newBrowser(closed).post("/sign-in/social", { provider: "google", idToken });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ code: "SIGNUP_DISABLED", message: "signup disabled" });
      expect(await countDocs(closed)).toEqual({ users: 0, accounts: 0, sessions: 0 });
      const asked = await newBrowser(closed).post("/sign-in/social", {
        provider: "google",
        idToken,
        requestSignUp: true,
      });
      expect(asked.status).toBe(200);
      expect(await countDocs(closed)).toEqual({ users: 1, accounts: 1, sessions: 1 });
    } finally {
      await closed.close();
    }
  });
});

describe("id-token refusals in JSON form", () => {
  it("a user create hook refusing → 401 unable to create user, nothing stored", async () => {
    const refusing = await createSocialAuth(server, ["google"], {
      hooks: { user: { create: { before: () => false } } },
    });
    try {
      const token = server.signIdToken("google", claimsFor("refused@example.com"));
      const res = await newBrowser(refusing).post("/sign-in/social", {
        provider: "google",
        idToken: { token, nonce: "n-0S6_WzA2Mj" },
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "UNABLE_TO_CREATE_USER", message: "unable to create user" });
      expect(await countDocs(refusing)).toEqual({ users: 0, accounts: 0, sessions: 0 });
    } finally {
      await refusing.close();
    }
  });

  it("linking an identity another user owns → 400 account already linked to a different user (H12)", async () => {
    const claims = claimsFor("owner-id@example.com");
    const owner = await signInWithIdToken({
      token: server.signIdToken("google", claims),
      nonce: "n-0S6_WzA2Mj",
    });
    expect(owner.res.status).toBe(200);
    const intruder = newBrowser(t);
    await signUp(intruder, { email: "intruder-id@example.com" });
    const sameEmail = { ...claims, email: "intruder-id@example.com" };
    const res = await intruder.post("/link-social", {
      provider: "google",
      idToken: { token: server.signIdToken("google", sameEmail), nonce: "n-0S6_WzA2Mj" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "ACCOUNT_ALREADY_LINKED_TO_DIFFERENT_USER",
      message: "account already linked to a different user",
    });
    const account = await t.db
      .collection("accounts")
      .findOne({ providerId: "google", accountId: claims.sub });
    const ownerUser = await t.db.collection("users").findOne({ email: "owner-id@example.com" });
    expect(account?.userId.equals(ownerUser?._id)).toBe(true);
  });
});

describe("POST /link-social with idToken", () => {
  it("links a verified token with the user's email; refuses another email and a bad token", async () => {
    const browser = newBrowser(t);
    await signUp(browser, { email: "linker-id@example.com" });
    const claims = claimsFor("linker-id@example.com");
    const before = await countDocs(t);
    const other = await browser.post("/link-social", {
      provider: "google",
      idToken: {
        token: server.signIdToken("google", claimsFor("not-me@example.com")),
        nonce: "n-0S6_WzA2Mj",
      },
    });
    expect(other.status).toBe(401);
    expect(other.body).toEqual({
      code: "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED",
      message: "different emails not allowed",
    });
    const forged = await browser.post("/link-social", {
      provider: "google",
      idToken: { token: server.signIdToken("google", claims, { key: "unknown" }), nonce: "n-0S6_WzA2Mj" },
    });
    expect(forged.body).toEqual(INVALID);
    expect(await countDocs(t)).toEqual(before);
    const ok = await browser.post("/link-social", {
      provider: "google",
      idToken: { token: server.signIdToken("google", claims), nonce: "n-0S6_WzA2Mj" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ url: "", redirect: false, status: true });
    expect(await countDocs(t)).toEqual({ ...before, accounts: before.accounts + 1 });
  });
});
