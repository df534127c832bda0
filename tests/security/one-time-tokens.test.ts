import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { mailedLink as mailedLinkOf, requestResetToken as requestResetTokenOf } from "#test/mail.ts";
import { credentialHashOf, resetRows } from "#test/stored-rows.ts";
import { TEST_ORIGIN, TEST_SECRET, useTestAuthPerTest } from "#test/test-auth.ts";
import { signJwt } from "../../packages/auth-core/src/crypto/index.ts";
import { expectCatalogueError, PASSWORD, sendRaw, snapshotDatabase } from "./helpers.ts";

/**
 * docs/security.mds of set B: where each row is covered. The tests carry their row id in a
 * comment; their names say the behaviour.
 *
 * E2  → packages/auth-core/src/features/password/reset-password.test.ts "works until the lifetime ends and is
 *       400 invalid token after it" (3600 + 1 s: 400 INVALID_TOKEN, hash unchanged) and "follows a configured
 *       lifetime"; here: configured lifetime + 1 s with the whole database unchanged
 * E3  → here (a body naming another user is refused; the token only changes its own user)
 * E4  → here (both links stay valid until one is used; then the other is 400) and reset-password.test.ts
 *       "invalidates the user's other outstanding reset links"
 * E5  → here (500 random tokens: 400, then 429; token entropy); stored hashed → reset-password.test.ts
 *       "stores a 24-char token for the user and mails a link to it" (the row holds the token's SHA-256
 *       only) and db/migrations/hash-stored-tokens.test.ts
 * E7  → here (Host / X-Forwarded-* / foreign Origin never reach the mailed link)
 * E8  → packages/auth-core/src/features/verification/verify-email.test.ts "a tampered token answers 401
 *       invalid_token" (modified email claim), "an expired token (3601 s) answers 401 token_expired …",
 *       "a JWT signed with our secret for another purpose …"; here: alg none and a change-email purpose
 * E24 → tests/security/one-time-sign-in-codes.test.ts (no magic link / email-OTP sign-in: 404; nearest real
 *       one-time mail code, the two-factor email OTP, works once)
 * F4  → cross-site-text-plain-post.test.ts (cross-site text/plain POST with a cookie: refused with 400 UNSUPPORTED_CONTENT_TYPE —
 *       400 for a wrong content type is checked before the origin — nothing changes)
 * G9  → tests/security/open-redirect-endpoints.test.ts "accepts the trusted %s" (every callback field);
 *       trusted-callback-urls.test.ts: the query and fragment survive, encoded, in the mailed links and the redirects
 * G10 → tests/security/open-redirect-endpoints.test.ts "GET /verify-email callbackURL" "refuses every evil
 *       payload …" — Tessera takes the row's 403 `Invalid callbackURL` alternative: nothing verified, no
 *       Location (it does not verify-then-redirect-to-default)
 * G11 → packages/auth-core/src/features/social/sign-in-social.test.ts "refuses an untrusted %s with 403 and
 *       stores no state" (errorCallbackURL: the flow never starts) and callback.test.ts "another browser's
 *       state → state_mismatch …" (the error lands on the trusted /api/auth/error page)
 * H17 → packages/auth-core/src/features/social/gates.test.ts "the callback redirects to the error URL with
 *       error=banned and mints no session" and "id-token sign-in answers 403 BANNED_USER"
 * I2  → packages/auth-core/src/features/organization/members/members.test.ts "refuses self-promotion, an admin
 *       touching the owner, unknown roles and demoting the sole owner"
 * I4  → same test as I2 (D demotes O: 403 MEMBER_UPDATE_NOT_ALLOWED, roles unchanged)
 * I8  → tests/security/cross-organization-writes.test.ts (idor.test.ts only asserted "some 4xx")
 * I11 → tests/security/cross-organization-writes.test.ts (idor.test.ts only asserted "some 4xx")
 * I13 → packages/auth-core/src/features/organization/organizations/organization.test.ts "only the owner deletes; everything
 *       of the organization goes and no session keeps it active"
 */
const ADA = "ada@example.com";
const BOB = "bob@example.com";
const NEW_PASSWORD = "new staple password";
const INVALID_TOKEN = { code: "INVALID_TOKEN", message: "invalid token" };

const { t, openAuth } = useTestAuthPerTest();

function hashOf(email: string): Promise<unknown> {
  return credentialHashOf(t.db, email);
}

const mailedLink = (email: string, path: string) => mailedLinkOf(t, email, path);

const requestResetToken = (email = ADA, redirectTo?: string) => requestResetTokenOf(t, email, redirectTo);

async function signInStatus(email: string, password: string): Promise<number> {
  return (await new TestBrowser(t.auth).post("/sign-in/email", { email, password })).status;
}

describe("reset and verification tokens work once, for their user, within their lifetime", () => {
  // matrix E2
  it("a reset token used 1 s after the configured resetPasswordTokenExpiresIn is 400 INVALID_TOKEN; database unchanged", async () => {
    await openAuth({ emailAndPassword: { resetPasswordTokenExpiresIn: 120 } }, { frozen: true });
    await signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD });
    const token = await requestResetToken();
    t.advance(121);
    const before = await snapshotDatabase(t.db);
    const res = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expectCatalogueError(res, 400, INVALID_TOKEN.code, INVALID_TOKEN.message);
    expect(await snapshotDatabase(t.db)).toBe(before);
    expect(await signInStatus(ADA, PASSWORD)).toBe(200);
    expect(await signInStatus(ADA, NEW_PASSWORD)).toBe(401);
  });

  // matrix E3
  it("a reset body naming user B (userId or email) is 400 VALIDATION_ERROR and uses nothing; the token then changes only A", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD });
    const bob = await signUp(new TestBrowser(t.auth), { email: BOB, password: PASSWORD, name: "Bob" });
    const token = await requestResetToken(ADA);
    const before = await snapshotDatabase(t.db);
    for (const extra of [{ userId: bob.body.user.id }, { email: BOB }]) {
      const res = await new TestBrowser(t.auth).post("/reset-password", {
        newPassword: NEW_PASSWORD,
        token,
        ...extra,
      });
      expectCatalogueError(res, 400, "VALIDATION_ERROR", "Invalid request");
      expect(await snapshotDatabase(t.db)).toBe(before);
    }
    const bobHash = await hashOf(BOB);
    const adaHash = await hashOf(ADA);
    const ok = await new TestBrowser(t.auth).post("/reset-password", { newPassword: NEW_PASSWORD, token });
    expect({ status: ok.status, body: ok.body }).toEqual({ status: 200, body: { status: true } });
    expect(await hashOf(ADA)).not.toBe(adaHash);
    expect(await hashOf(BOB)).toBe(bobHash);
    expect(await signInStatus(BOB, PASSWORD)).toBe(200);
    expect(await signInStatus(BOB, NEW_PASSWORD)).toBe(401);
    expect(await signInStatus(ADA, NEW_PASSWORD)).toBe(200);
  });

  // matrix E4
  it("two reset requests — both links stay valid until one is used (the row's 'both valid' alternative); the first works, then the second is 400 INVALID_TOKEN", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD });
    const first = await requestResetToken();
    const second = await requestResetToken();
    expect(first).not.toBe(second);
    expect(await resetRows(t.db)).toHaveLength(2);
    const ok = await new TestBrowser(t.auth).post("/reset-password", {
      newPassword: NEW_PASSWORD,
      token: first,
    });
    expect(ok.status).toBe(200);
    expect(await resetRows(t.db)).toHaveLength(0);
    const hashAfter = await hashOf(ADA);
    const late = await new TestBrowser(t.auth).post("/reset-password", {
      newPassword: "attacker password",
      token: second,
    });
    expectCatalogueError(late, 400, INVALID_TOKEN.code, INVALID_TOKEN.message);
    expect(await hashOf(ADA)).toBe(hashAfter);
    expect(await signInStatus(ADA, NEW_PASSWORD)).toBe(200);
  });

  // matrix E5
  it("500 random reset tokens — the first 100 are 400 INVALID_TOKEN, the rest 429; nothing changes; an issued token is 24 of [A-Za-z0-9] (≈143 bits)", async () => {
    await openAuth({ rateLimit: { enabled: true } }, { frozen: true });
    await signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD });
    const real = await requestResetToken();
    // 24 characters of [A-Za-z0-9] drawn with crypto randomInt: 24 · log2(62) ≈ 142.9 bits.
    expect(real).toMatch(/^[A-Za-z0-9]{24}$/);
    const before = await snapshotDatabase(t.db);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const statuses: number[] = [];
    for (let i = 0; i < 500; i++) {
      const token = Array.from({ length: 24 }, () => alphabet[Math.floor(Math.random() * 62)]).join("");
      const res = await sendRaw(t.auth, "POST", "/reset-password", {
        headers: { "content-type": "application/json", origin: TEST_ORIGIN },
        body: JSON.stringify({ newPassword: NEW_PASSWORD, token }),
        remoteAddress: "192.0.2.5",
      });
      statuses.push(res.status);
      if (i === 0) expectCatalogueError(res, 400, INVALID_TOKEN.code, INVALID_TOKEN.message);
      if (i === 499)
        expectCatalogueError(res, 429, "TOO_MANY_REQUESTS", "Too many requests. Please try again later.");
    }
    // docs/decisions/0010-origins-csrf-and-rate-limits.md "Rate limits": 100 requests / 10 s per client and path by default.
    expect(statuses.slice(0, 100)).toEqual(Array(100).fill(400));
    expect(statuses.slice(100)).toEqual(Array(400).fill(429));
    expect(await snapshotDatabase(t.db)).toBe(before);
    // The real token still works, from another client address.
    const ok = await new TestBrowser(t.auth).post(
      "/reset-password",
      { newPassword: NEW_PASSWORD, token: real },
      { remoteAddress: "192.0.2.6" },
    );
    expect(ok.status).toBe(200);
  });

  // matrix E7
  it("forget-password with Host, X-Forwarded-Host/Proto and Origin of evil.com mails a link on the configured baseURL only", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD });
    const headers = {
      "content-type": "application/json",
      host: "evil.com",
      "x-forwarded-host": "evil.com",
      "x-forwarded-proto": "http",
    };
    const body = JSON.stringify({ email: ADA });
    for (const url of [
      `${TEST_ORIGIN}/api/auth/forget-password`,
      "https://evil.com/api/auth/forget-password",
    ]) {
      const res = await sendRaw(t.auth, "POST", url, { headers, body });
      expect(res.status).toBe(200);
      const link = mailedLink(ADA, "/reset-password/");
      expect(link.startsWith(`${TEST_ORIGIN}/api/auth/reset-password/`)).toBe(true);
      expect(t.outbox.latestTo(ADA)?.text).not.toContain("evil.com");
    }
    const mails = t.outbox.messages().length;
    const foreign = await sendRaw(t.auth, "POST", "/forget-password", {
      headers: { ...headers, origin: "https://evil.com" },
      body,
    });
    expect(foreign.status).toBe(200);
    expect(t.outbox.messages()).toHaveLength(mails + 1);
    expect(mailedLink(ADA, "/reset-password/").startsWith(`${TEST_ORIGIN}/api/auth/reset-password/`)).toBe(
      true,
    );
    expect(await resetRows(t.db)).toHaveLength(3);
  });

  // matrix E8
  it("verify-email refuses an alg:none token and a token signed for change-email: 401 INVALID_VERIFICATION_TOKEN, emailVerified stays false", async () => {
    await openAuth();
    const ada = await signUp(new TestBrowser(t.auth), { email: ADA, password: PASSWORD });
    const claims = {
      email: ADA,
      purpose: "verify-email",
      sub: ada.body.user.id,
      exp: Math.floor(t.now().getTime() / 1000) + 3600,
    };
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const algNone = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
    const changeEmail = await signJwt({ ...claims, purpose: "change-email" }, TEST_SECRET, 3600, t.now());
    const before = await snapshotDatabase(t.db);
    for (const token of [algNone, changeEmail]) {
      const res = await new TestBrowser(t.auth).get(`/verify-email?${new URLSearchParams({ token })}`);
      expectCatalogueError(res, 401, "INVALID_VERIFICATION_TOKEN", "invalid_token");
      expect(res.headers.getSetCookie().join()).not.toContain(SESSION_COOKIE);
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
    expect(
      (await t.db.collection("users").findOne({ _id: new ObjectId(ada.body.user.id) }))?.emailVerified,
    ).toBe(false);
  });
});
