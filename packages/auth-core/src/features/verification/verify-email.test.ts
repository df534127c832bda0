import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { TEST_SECRET, useTestAuthPerTest } from "#test/test-auth.ts";
import { signJwt } from "../../crypto/index.ts";

const { t, openAuth } = useTestAuthPerTest();

const ADA = "ada@example.com";

/** Signs Ada up and has a verification link mailed to her; returns the link's token. */
async function mailedToken(): Promise<string> {
  await signUp(new TestBrowser(t.auth));
  await new TestBrowser(t.auth).post("/send-verification-email", { email: ADA });
  const link = t.outbox.latestTo(ADA)!.text.match(/https?:\/\/\S+/)![0];
  return new URL(link).searchParams.get("token")!;
}

function verifyPath(token: string, callbackURL?: string): string {
  const query = new URLSearchParams({ token });
  if (callbackURL !== undefined) query.set("callbackURL", callbackURL);
  return `/verify-email?${query}`;
}

async function adaDoc() {
  return t.db.collection("users").findOne({ email: ADA });
}

describe("GET /verify-email, success", () => {
  it("without callbackURL answers {status, user} and sets emailVerified", async () => {
    await openAuth();
    const token = await mailedToken();
    const res = await new TestBrowser(t.auth).get<{
      status: boolean;
      user: { email: string; emailVerified: boolean };
    }>(verifyPath(token));
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.user).toMatchObject({ email: ADA, emailVerified: true });
    expect((await adaDoc())?.emailVerified).toBe(true);
  });

  it("is idempotent: a second use still answers success and the user stays verified", async () => {
    await openAuth();
    const token = await mailedToken();
    const browser = new TestBrowser(t.auth);
    await browser.get(verifyPath(token));
    const again = await browser.get<{ status: boolean }>(verifyPath(token));
    expect(again.status).toBe(200);
    expect(again.body.status).toBe(true);
    expect((await adaDoc())?.emailVerified).toBe(true);
  });

  it.each([
    ["/", "/"],
    ["/dashboard?tab=1", "/dashboard?tab=1"],
    ["http://localhost:3000/welcome", "http://localhost:3000/welcome"],
  ])("with callbackURL %s redirects to it", async (callbackURL, location) => {
    await openAuth();
    const token = await mailedToken();
    const res = await new TestBrowser(t.auth).get(verifyPath(token, callbackURL));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(location);
    expect((await adaDoc())?.emailVerified).toBe(true);
  });

  it("does not sign anyone in by default", async () => {
    await openAuth();
    const token = await mailedToken();
    const browser = new TestBrowser(t.auth);
    const sessionsBefore = await t.db.collection("sessions").countDocuments();
    await browser.get(verifyPath(token));
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await t.db.collection("sessions").countDocuments()).toBe(sessionsBefore);
  });
});

describe("GET /verify-email with autoSignInAfterVerification", () => {
  it("signs the visitor in once, on the first verification only", async () => {
    await openAuth({ emailVerification: { autoSignInAfterVerification: true } });
    const token = await mailedToken();
    const user = await adaDoc();
    const browser = new TestBrowser(t.auth);
    const res = await browser.get(verifyPath(token, "/home"));
    expect(res.status).toBe(302);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await t.db.collection("sessions").countDocuments({ userId: user?._id })).toBe(2);
    const session = await browser.get<{ user: { email: string; emailVerified: boolean } }>("/get-session");
    expect(session.body.user).toMatchObject({ email: ADA, emailVerified: true });

    // A replayed (forwarded, leaked) link verifies nothing new and mints no further session.
    const stranger = new TestBrowser(t.auth);
    await stranger.get(verifyPath(token, "/home"));
    expect(stranger.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await t.db.collection("sessions").countDocuments({ userId: user?._id })).toBe(2);
  });

  it("mints one session for 10 concurrent clicks of the link (the verified-flag update is not atomic on FerretDB v1)", async () => {
    await openAuth({ emailVerification: { autoSignInAfterVerification: true } });
    const token = await mailedToken();
    const user = await adaDoc();
    const visitors = Array.from({ length: 10 }, () => new TestBrowser(t.auth));
    const results = await Promise.all(visitors.map((visitor) => visitor.get(verifyPath(token))));
    expect(results.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(visitors.filter((visitor) => visitor.cookies.has(SESSION_COOKIE))).toHaveLength(1);
    // Ada's sign-up session plus exactly one from the link.
    expect(await t.db.collection("sessions").countDocuments({ userId: user?._id })).toBe(2);
    expect((await adaDoc())?.emailVerified).toBe(true);
  });

  it("does not replace the session of someone already signed in", async () => {
    await openAuth({ emailVerification: { autoSignInAfterVerification: true } });
    const token = await mailedToken();
    const bob = new TestBrowser(t.auth);
    await signUp(bob, { email: "bob@example.com" });
    const res = await bob.get(verifyPath(token));
    expect(res.status).toBe(200);
    const session = await bob.get<{ user: { email: string } }>("/get-session");
    expect(session.body.user.email).toBe("bob@example.com");
    expect((await adaDoc())?.emailVerified).toBe(true);
  });
});

describe("GET /verify-email, token errors", () => {
  it("an expired token (3601 s) answers 401 token_expired and verifies nothing", async () => {
    await openAuth();
    const token = await mailedToken();
    t.advance(3601);
    const res = await new TestBrowser(t.auth).get(verifyPath(token));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "TOKEN_EXPIRED", message: "token_expired" });
    expect((await adaDoc())?.emailVerified).toBe(false);
  });

  it("a token still inside its lifetime (3599 s) works", async () => {
    // A frozen clock: on a loaded machine the sign-up's scrypt alone can take past the last second.
    await openAuth({}, { frozen: true });
    const token = await mailedToken();
    t.advance(3599);
    const res = await new TestBrowser(t.auth).get(verifyPath(token));
    expect(res.status).toBe(200);
    expect((await adaDoc())?.emailVerified).toBe(true);
  });

  it("a tampered token answers 401 invalid_token", async () => {
    await openAuth();
    const token = await mailedToken();
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const otherEmail = Buffer.from(JSON.stringify({ ...claims, email: "eve@evil.io" })).toString("base64url");
    for (const bad of [flipped, `${header}.${otherEmail}.${signature}`, "not-a-jwt"]) {
      const res = await new TestBrowser(t.auth).get(verifyPath(bad));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "INVALID_VERIFICATION_TOKEN", message: "invalid_token" });
    }
    expect((await adaDoc())?.emailVerified).toBe(false);
  });

  it("a JWT signed with our secret for another purpose, or with another secret, is invalid_token", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth));
    const now = t.now();
    const noPurpose = await signJwt({ email: ADA }, TEST_SECRET, 3600, now);
    const otherSecret = await signJwt(
      { email: ADA, purpose: "verify-email" },
      "another-secret-0123456789abcdef",
      3600,
      now,
    );
    for (const bad of [noPurpose, otherSecret]) {
      const res = await new TestBrowser(t.auth).get(verifyPath(bad));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "INVALID_VERIFICATION_TOKEN", message: "invalid_token" });
    }
    expect((await adaDoc())?.emailVerified).toBe(false);
  });

  it("a token for a deleted user answers 401 user_not_found", async () => {
    await openAuth();
    const token = await mailedToken();
    await t.db.collection("users").deleteOne({ email: ADA });
    const res = await new TestBrowser(t.auth).get(verifyPath(token));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "VERIFICATION_USER_NOT_FOUND", message: "user_not_found" });
  });

  it("a token bound to a deleted user does not verify a new account re-registered at that address", async () => {
    await openAuth();
    const token = await mailedToken();
    await t.db.collection("users").deleteOne({ email: ADA });
    await signUp(new TestBrowser(t.auth));
    const res = await new TestBrowser(t.auth).get(verifyPath(token));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "VERIFICATION_USER_NOT_FOUND", message: "user_not_found" });
    expect((await adaDoc())?.emailVerified).toBe(false);
  });

  it("a token without a user binding falls back to the address (tokens minted by createEmailVerificationToken)", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth));
    const token = await signJwt({ email: ADA, purpose: "verify-email" }, TEST_SECRET, 3600, t.now());
    const res = await new TestBrowser(t.auth).get(verifyPath(token));
    expect(res.status).toBe(200);
    expect((await adaDoc())?.emailVerified).toBe(true);
  });

  it.each([
    ["/done", "expired", "/done?error=token_expired"],
    ["/done?tab=1", "expired", "/done?tab=1&error=token_expired"],
    ["/done", "tampered", "/done?error=invalid_token"],
    ["http://localhost:3000/done", "deleted", "http://localhost:3000/done?error=user_not_found"],
  ])(
    "with callbackURL %s, a %s token redirects with the error parameter",
    async (callbackURL, kind, location) => {
      await openAuth();
      let token = await mailedToken();
      if (kind === "expired") t.advance(3601);
      if (kind === "tampered") token = `${token}x`;
      if (kind === "deleted") await t.db.collection("users").deleteOne({ email: ADA });
      const res = await new TestBrowser(t.auth).get(verifyPath(token, callbackURL));
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(location);
      expect((await adaDoc())?.emailVerified ?? false).toBe(false);
    },
  );

  it.each([["https://evil.example/x"], ["//evil.example"], ["/\\evil.example"]])(
    "an untrusted callbackURL %s answers 403 and verifies nothing (CVE-2024-56734)",
    async (callbackURL) => {
      await openAuth();
      const token = await mailedToken();
      const res = await new TestBrowser(t.auth).get(verifyPath(token, callbackURL));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
      expect(res.headers.get("location")).toBeNull();
      expect((await adaDoc())?.emailVerified).toBe(false);
    },
  );

  it("a missing or empty token answers 400 and verifies nothing", async () => {
    await openAuth();
    await mailedToken();
    for (const path of ["/verify-email", "/verify-email?token=", "/verify-email?callbackURL=%2F"]) {
      const res = await new TestBrowser(t.auth).get(path);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR" });
    }
    expect((await adaDoc())?.emailVerified).toBe(false);
  });

  it("a sub that is not a 24-hex id never reaches the database and answers user_not_found", async () => {
    await openAuth();
    await signUp(new TestBrowser(t.auth));
    const id = new ObjectId().toHexString();
    for (const sub of [`${id}x`, "zzzz"]) {
      const token = await signJwt({ email: ADA, purpose: "verify-email", sub }, TEST_SECRET, 3600, t.now());
      const res = await new TestBrowser(t.auth).get(verifyPath(token));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "VERIFICATION_USER_NOT_FOUND", message: "user_not_found" });
    }
    expect((await adaDoc())?.emailVerified).toBe(false);
  });
});
