/**
 * Per-provider response shapes for tests/support/oauth-server.ts: what each real provider's
 * documented user-info (and related) endpoints answer, built from one neutral identity so a test
 * can say "this person signs in through GitHub" without knowing GitHub's JSON.
 */

/** A person at a provider, in neutral terms. */
export interface TestIdentity {
  id: string;
  email: string | null;
  emailVerified: boolean;
  name: string;
  image: string | null;
}

/** What the server answers for one provider; snapshotted into every code it issues. */
export interface ProviderFixture {
  /** Body of `/{id}/userinfo` (the provider's documented shape). */
  userInfo: unknown;
  /** Bodies of `/{id}/{name}` extra endpoints (GitHub: `emails`). */
  extra?: Record<string, unknown>;
  /** When set, token responses carry an RS256 id_token with these claims (plus iss, aud, iat, exp, nonce). */
  idTokenClaims?: Record<string, unknown>;
  /** Apple: the one-time `user` JSON posted to the callback with the first consent. */
  formPostUser?: unknown;
  /** Extra fields merged into token responses (TikTok's open_id, …). */
  tokenExtras?: Record<string, unknown>;
}

export const DEFAULT_IDENTITY: TestIdentity = {
  id: "1234567890",
  email: "ada@example.com",
  emailVerified: true,
  name: "Ada Lovelace",
  image: "https://images.example.com/ada.png",
};

function splitName(name: string): { first: string; last: string } {
  const [first = "", ...rest] = name.split(" ");
  return { first, last: rest.join(" ") };
}

function oidcClaims(who: TestIdentity): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: who.id, name: who.name };
  if (who.email !== null) {
    claims.email = who.email;
    claims.email_verified = who.emailVerified;
  }
  if (who.image !== null) claims.picture = who.image;
  return claims;
}

type FixtureBuilder = (who: TestIdentity) => ProviderFixture;

/** Shapes from each provider's API reference (fields a client reads, plus a few it must ignore). */
const FIXTURE_BUILDERS: Record<string, FixtureBuilder> = {
  // Sign in with Apple: no user-info endpoint; email_verified is a string; name only in `user`.
  apple: (who) => ({
    userInfo: null,
    idTokenClaims: {
      sub: who.id,
      ...(who.email === null ? {} : { email: who.email, email_verified: String(who.emailVerified) }),
      is_private_email: "false",
      auth_time: Math.floor(Date.now() / 1000),
    },
    formPostUser: {
      name: { firstName: splitName(who.name).first, lastName: splitName(who.name).last },
      ...(who.email === null ? {} : { email: who.email }),
    },
  }),
  // GET https://discord.com/api/users/@me
  discord: (who) => ({
    userInfo: {
      id: who.id,
      username: who.name.toLowerCase().replace(/\s+/g, "_"),
      global_name: who.name,
      discriminator: "0",
      avatar: who.image === null ? null : "a_1269e74af4df7417b13759eae50c83dc",
      email: who.email,
      verified: who.emailVerified,
      mfa_enabled: false,
      locale: "en-US",
    },
  }),
  // GET https://graph.facebook.com/me?fields=id,name,email,picture
  facebook: (who) => ({
    userInfo: {
      id: who.id,
      name: who.name,
      ...(who.email === null ? {} : { email: who.email }),
      picture: { data: { height: 50, width: 50, is_silhouette: who.image === null, url: who.image ?? "" } },
    },
  }),
  // GET https://api.github.com/user (email null when private) + GET /user/emails
  github: (who) => ({
    userInfo: {
      login: who.name.toLowerCase().replace(/\s+/g, "-"),
      id: Number(who.id),
      node_id: "MDQ6VXNlcjE=",
      avatar_url: who.image,
      type: "User",
      name: who.name,
      email: null,
    },
    extra: {
      emails:
        who.email === null
          ? []
          : [
              { email: "old@example.org", primary: false, verified: true, visibility: null },
              { email: who.email, primary: true, verified: who.emailVerified, visibility: "private" },
            ],
    },
  }),
  // Microsoft identity platform v2 id token (profile is read from it) and Graph OIDC userinfo.
  microsoft: (who) => ({
    userInfo: oidcClaims(who),
    idTokenClaims: {
      ...oidcClaims(who),
      oid: "00000000-0000-0000-66f3-3332eca7ea81",
      tid: "9188040d-6c67-4c5b-b112-36a304b66dad",
      preferred_username: who.email,
      ver: "2.0",
    },
  }),
  // Google id token (profile is read from it) and OIDC userinfo.
  google: (who) => ({
    userInfo: oidcClaims(who),
    idTokenClaims: { ...oidcClaims(who), azp: "test-client-id", given_name: splitName(who.name).first },
  }),
  // GET https://huggingface.co/oauth/userinfo
  huggingface: (who) => ({
    userInfo: {
      ...oidcClaims(who),
      preferred_username: who.name.replace(/\s+/g, ""),
      profile: "https://huggingface.co/ada",
      isPro: false,
      orgs: [],
    },
    idTokenClaims: oidcClaims(who),
  }),
  // GET https://api.spotify.com/v1/me
  spotify: (who) => ({
    userInfo: {
      id: who.id,
      display_name: who.name,
      ...(who.email === null ? {} : { email: who.email }),
      images: who.image === null ? [] : [{ url: who.image, height: 300, width: 300 }],
      country: "SE",
      product: "premium",
    },
  }),
  // Twitch OIDC: id token with the requested claims; userinfo the same.
  twitch: (who) => ({
    userInfo: { ...oidcClaims(who), preferred_username: who.name },
    idTokenClaims: { ...oidcClaims(who), preferred_username: who.name },
  }),
  // GET https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email
  twitter: (who) => ({
    userInfo: {
      data: {
        id: who.id,
        name: who.name,
        username: who.name.replace(/\s+/g, ""),
        ...(who.image === null ? {} : { profile_image_url: who.image }),
        ...(who.email === null ? {} : { confirmed_email: who.email }),
      },
    },
  }),
  // POST https://api.dropboxapi.com/2/users/get_current_account
  dropbox: (who) => ({
    userInfo: {
      account_id: `dbid:${who.id}`,
      name: {
        given_name: splitName(who.name).first,
        surname: splitName(who.name).last,
        familiar_name: splitName(who.name).first,
        display_name: who.name,
        abbreviated_name: "AL",
      },
      email: who.email,
      email_verified: who.emailVerified,
      ...(who.image === null ? {} : { profile_photo_url: who.image }),
      disabled: false,
    },
  }),
  // GET https://api.kick.com/public/v1/users
  kick: (who) => ({
    userInfo: {
      data: [{ user_id: Number(who.id), name: who.name, email: who.email, profile_picture: who.image ?? "" }],
      message: "OK",
    },
  }),
  // GET https://api.linkedin.com/v2/userinfo (OIDC)
  linkedin: (who) => ({
    userInfo: {
      ...oidcClaims(who),
      given_name: splitName(who.name).first,
      locale: { country: "US", language: "en" },
    },
    idTokenClaims: oidcClaims(who),
  }),
  // GET https://gitlab.com/api/v4/user
  gitlab: (who) => ({
    userInfo: {
      id: Number(who.id),
      username: who.name.toLowerCase().replace(/\s+/g, "."),
      name: who.name,
      state: "active",
      avatar_url: who.image,
      email: who.email,
      confirmed_at: who.emailVerified ? "2024-01-01T00:00:00.000Z" : null,
    },
    idTokenClaims: oidcClaims(who),
  }),
  // GET https://open.tiktokapis.com/v2/user/info/?fields=… (no email, ever)
  tiktok: (who) => ({
    userInfo: {
      data: {
        user: {
          open_id: who.id,
          union_id: `u-${who.id}`,
          display_name: who.name,
          username: who.name.replace(/\s+/g, "").toLowerCase(),
          ...(who.image === null ? {} : { avatar_large_url: who.image, avatar_url: who.image }),
        },
      },
      error: { code: "ok", message: "", log_id: "20240101000000" },
    },
    tokenExtras: { open_id: who.id, refresh_expires_in: 31536000 },
  }),
  // GET https://oauth.reddit.com/api/v1/me (no email)
  reddit: (who) => ({
    userInfo: {
      id: who.id,
      name: who.name.replace(/\s+/g, "_"),
      icon_img: who.image === null ? "" : `${who.image}?width=256&amp;s=abc`,
      has_verified_email: who.emailVerified,
      verified: true,
    },
  }),
  // GET https://apis.roblox.com/oauth/v1/userinfo (no email)
  roblox: (who) => ({
    userInfo: {
      sub: who.id,
      name: who.name,
      nickname: who.name,
      preferred_username: who.name.replace(/\s+/g, ""),
      created_at: 1600000000,
      profile: `https://www.roblox.com/users/${who.id}/profile`,
      ...(who.image === null ? {} : { picture: who.image }),
    },
    idTokenClaims: { sub: who.id, name: who.name, nickname: who.name },
  }),
  // POST https://id.vk.com/oauth2/user_info
  vk: (who) => ({
    userInfo: {
      user: {
        user_id: who.id,
        first_name: splitName(who.name).first,
        last_name: splitName(who.name).last,
        avatar: who.image ?? "",
        ...(who.email === null ? {} : { email: who.email }),
        sex: 1,
        verified: false,
      },
    },
    tokenExtras: { user_id: Number(who.id) },
  }),
  // GET https://api.zoom.us/v2/users/me
  zoom: (who) => ({
    userInfo: {
      id: who.id,
      first_name: splitName(who.name).first,
      last_name: splitName(who.name).last,
      display_name: who.name,
      email: who.email,
      verified: who.emailVerified ? 1 : 0,
      ...(who.image === null ? {} : { pic_url: who.image }),
      type: 1,
      account_id: "q6gBJVO5TzexKYTb_I2rpg",
    },
  }),
};

/** A standard OIDC provider (generic providers and any unknown id). */
function buildOidcFixture(who: TestIdentity): ProviderFixture {
  return { userInfo: oidcClaims(who), idTokenClaims: oidcClaims(who) };
}

export function buildFixture(providerId: string, who: TestIdentity = DEFAULT_IDENTITY): ProviderFixture {
  return (FIXTURE_BUILDERS[providerId] ?? buildOidcFixture)(who);
}
