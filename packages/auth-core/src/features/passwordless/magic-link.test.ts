import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUpUser, TestBrowser } from "#test/browser.ts";
import { mailCount, mailedSignIn, PASSWORDLESS, passwordlessRows } from "#test/passwordless.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const EMAIL = "ada@example.com";
const INVALID_TOKEN = { code: "INVALID_TOKEN", message: "invalid token" };

const { t, openAuth } = useTestAuthPerTest();

async function requestLink(body: Record<string, unknown> = {}, email = EMAIL) {
  const res = await new TestBrowser(t.auth).post("/sign-in/magic-link", { email, ...body });
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { status: true } });
  return mailedSignIn(t, email);
}

/** The path and query of a mailed link, as the test browser requests it. */
const pathOf = (url: string) => url.slice(url.indexOf("/api/auth") + "/api/auth".length);

async function sessionRows() {
  return t.db.collection("sessions").countDocuments({});
}

describe("the mailed link survives mail scanners", () => {
  it("a GET and a HEAD of the link sign nobody in and spend nothing; the POST then signs in, once", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const sessionsBefore = await sessionRows();
    const { url, token } = await requestLink({ callbackURL: "/dashboard" });
    const scanner = new TestBrowser(t.auth);
    const get = await scanner.get(pathOf(url!));
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toContain("text/html");
    expect(get.headers.getSetCookie()).toEqual([]);
    expect(get.body).toContain('<form method="post"');
    const head = await scanner.request("HEAD", pathOf(url!));
    expect(head.status).toBe(200);
    expect(head.headers.getSetCookie()).toEqual([]);
    expect(await sessionRows()).toBe(sessionsBefore);

    const person = new TestBrowser(t.auth);
    const post = await person.request("POST", "/magic-link/verify", {
      rawBody: new URLSearchParams({ token: token!, callbackURL: "/dashboard" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toBe("/dashboard");
    expect(person.cookies.has(SESSION_COOKIE)).toBe(true);
    expect(await sessionRows()).toBe(sessionsBefore + 1);

    const again = await new TestBrowser(t.auth).post("/magic-link/verify", { token });
    expect({ status: again.status, body: again.body }).toEqual({ status: 400, body: INVALID_TOKEN });
    const deadGet = await new TestBrowser(t.auth).get(pathOf(url!));
    expect(deadGet.status).toBe(302);
    expect(deadGet.headers.get("location")).toBe("/dashboard?error=INVALID_TOKEN");
  });

  it("the core's confirmation page is in the mail's language and posts the link's fields back", async () => {
    await openAuth(PASSWORDLESS);
    const { url, token } = await requestLink({ language: "GERMAN", errorCallbackURL: "/oops" });
    const page = await new TestBrowser(t.auth).get(pathOf(url!));
    expect(page.body).toContain('<html lang="de">');
    expect(page.body).toContain("Anmelden");
    expect(page.body).toContain(`action="http://localhost:3000/api/auth/magic-link/verify"`);
    expect(page.body).toContain(`name="token" value="${token}"`);
    expect(page.body).toContain('name="errorCallbackURL" value="/oops"');
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    // Clickjacking: no other site may frame the one button that signs in.
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("cache-control")).toContain("no-store");
  });

  it("mails an existing user in the page's language when the user never saved one, and in the saved one otherwise", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    await requestLink({ language: "fr" });
    expect(t.outbox.latestTo(EMAIL)?.subject).toBe("Connexion à Tessera");
    await t.db.collection("users").updateOne({ email: EMAIL }, { $set: { language: "GERMAN" } });
    await requestLink({ language: "fr" });
    expect(t.outbox.latestTo(EMAIL)?.subject).toBe("Anmeldung bei Tessera");
  });

  it("with magicLink.confirmURL the link leads to the app's page, which posts the token", async () => {
    await openAuth({ ...PASSWORDLESS, magicLink: { enabled: true, confirmURL: "/confirm-sign-in" } });
    await signUpUser(t, { email: EMAIL });
    const { url, token } = await requestLink({ callbackURL: "/home" });
    const get = await new TestBrowser(t.auth).get(pathOf(url!));
    expect(get.status).toBe(302);
    const location = new URL(get.headers.get("location")!, "http://localhost:3000");
    expect(location.pathname).toBe("/confirm-sign-in");
    expect(location.searchParams.get("token")).toBe(token);
    expect(location.searchParams.get("callbackURL")).toBe("/home");
    const post = await new TestBrowser(t.auth).post("/magic-link/verify", { token });
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ user: { email: EMAIL }, session: { token: expect.any(String) } });
  });
});

describe("sign-in by link", () => {
  it("signs up an address nobody has, verified, in the language it asked in, and goes to newUserCallbackURL", async () => {
    await openAuth(PASSWORDLESS);
    const { token } = await requestLink({
      name: "Grace",
      language: "FRA",
      callbackURL: "/home",
      newUserCallbackURL: "/welcome",
    });
    const browser = new TestBrowser(t.auth);
    const res = await browser.post("/magic-link/verify", {
      token,
      callbackURL: "/home",
      newUserCallbackURL: "/welcome",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/welcome");
    const user = await t.db.collection("users").findOne({ email: EMAIL });
    expect(user).toMatchObject({ name: "Grace", emailVerified: true, language: "FRA" });
    expect(await t.db.collection("emailClaims").countDocuments({})).toBe(1);
  });

  it("with magicLink.disableSignUp an address nobody has gets the same answer and no mail", async () => {
    await openAuth({ magicLink: { enabled: true, disableSignUp: true } });
    const res = await new TestBrowser(t.auth).post("/sign-in/magic-link", { email: "nobody@example.com" });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { status: true } });
    expect(mailCount(t, "nobody@example.com")).toBe(0);
    expect(await t.db.collection("users").countDocuments({})).toBe(0);
  });

  it("one mail carries the link and the code; using the code spends the link", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL });
    const mailed = await requestLink();
    expect(mailed.kind).toBe("sign-in-link");
    expect(mailed.code).toMatch(/^\d{6}$/);
    const byCode = await new TestBrowser(t.auth).post("/sign-in/email-otp", {
      email: EMAIL,
      otp: mailed.code,
    });
    expect(byCode.status).toBe(200);
    const byLink = await new TestBrowser(t.auth).post("/magic-link/verify", { token: mailed.token });
    expect({ status: byLink.status, body: byLink.body }).toEqual({ status: 400, body: INVALID_TOKEN });
  });

  it("a newer request replaces the older mail: its link and code stop working", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL });
    const first = await requestLink();
    const second = await requestLink();
    const oldLink = await new TestBrowser(t.auth).post("/magic-link/verify", { token: first.token });
    expect(oldLink.body).toEqual(INVALID_TOKEN);
    const oldCode = await new TestBrowser(t.auth).post("/sign-in/email-otp", {
      email: EMAIL,
      otp: first.code,
    });
    expect(oldCode.body).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
    const newLink = await new TestBrowser(t.auth).post("/magic-link/verify", { token: second.token });
    expect(newLink.status).toBe(200);
  });

  it("a link expires after 5 minutes", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL });
    const { token } = await requestLink();
    t.advance(301);
    const res = await new TestBrowser(t.auth).post("/magic-link/verify", { token });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: INVALID_TOKEN });
  });

  it("the link and the code keep their own lifetimes (magicLink.expiresIn, emailOTP.expiresIn)", async () => {
    await openAuth({
      magicLink: { enabled: true, expiresIn: 120 },
      emailOTP: { enabled: true, expiresIn: 300 },
    });
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const { token, code } = await requestLink();
    t.advance(121);
    const byLink = await new TestBrowser(t.auth).post("/magic-link/verify", { token });
    expect({ status: byLink.status, body: byLink.body }).toEqual({ status: 400, body: INVALID_TOKEN });
    const byCode = await new TestBrowser(t.auth).post("/sign-in/email-otp", { email: EMAIL, otp: code });
    expect(byCode.status).toBe(200);
  });

  it("parallel confirmations of one link sign in once", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const sessionsBefore = await sessionRows();
    const { token } = await requestLink();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => new TestBrowser(t.auth).post("/magic-link/verify", { token })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect(await sessionRows()).toBe(sessionsBefore + 1);
  });

  it("a banned user is refused, with an error redirect when the link carries a callbackURL", async () => {
    await openAuth(PASSWORDLESS);
    const { id } = await signUpUser(t, { email: EMAIL });
    await t.db.collection("users").updateOne({ email: EMAIL }, { $set: { banned: true } });
    const sessionsBefore = await sessionRows();
    const json = await new TestBrowser(t.auth).post("/magic-link/verify", {
      token: (await requestLink()).token,
    });
    expect(json.status).toBe(403);
    expect(json.body).toMatchObject({ code: "BANNED_USER" });
    const { token } = await requestLink();
    const form = await new TestBrowser(t.auth).post("/magic-link/verify", { token, callbackURL: "/home" });
    expect(form.headers.get("location")).toBe("/home?error=BANNED_USER");
    expect(await sessionRows()).toBe(sessionsBefore);
    expect(id).toBeTruthy();
  });

  it("an unverified account proven by the link keeps nothing from before: sessions, password go; verified", async () => {
    await openAuth(PASSWORDLESS);
    const squatter = await signUpUser(t, { email: EMAIL, password: "squatter password 1" });
    const { token } = await requestLink();
    const owner = new TestBrowser(t.auth);
    expect((await owner.post("/magic-link/verify", { token })).status).toBe(200);
    expect((await squatter.browser.get("/get-session")).body).toBeNull();
    const byPassword = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: EMAIL,
      password: "squatter password 1",
    });
    expect(byPassword.status).toBe(401);
    expect(await t.db.collection("users").findOne({ email: EMAIL })).toMatchObject({ emailVerified: true });
    expect(await sessionRows()).toBe(1);
  });

  it("stores the link's token and the code only hashed", async () => {
    await openAuth(PASSWORDLESS);
    const { token, code } = await requestLink();
    const stored = JSON.stringify(await passwordlessRows(t));
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(`"${code}"`);
  });

  it("is not found while magic links are off (the default)", async () => {
    await openAuth();
    const res = await new TestBrowser(t.auth).post("/sign-in/magic-link", { email: EMAIL });
    expect(res.status).toBe(404);
    expect(mailCount(t, EMAIL)).toBe(0);
  });

  it("a cross-site POST of a token is refused (login CSRF)", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL });
    const { token } = await requestLink();
    const sessionsBefore = await sessionRows();
    const victim = new TestBrowser(t.auth, "https://evil.example");
    const res = await victim.post(
      "/magic-link/verify",
      { token },
      { headers: { "sec-fetch-site": "cross-site" } },
    );
    expect({ status: res.status, body: res.body }).toEqual({
      status: 403,
      body: { code: "INVALID_ORIGIN", message: "Invalid origin" },
    });
    expect(victim.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await sessionRows()).toBe(sessionsBefore);
    // The token was not spent: its owner's own confirmation still signs in.
    const ok = await new TestBrowser(t.auth).post("/magic-link/verify", { token });
    expect(ok.status).toBe(200);
  });

  it("a cookieless form POST of a token without Fetch Metadata (an older browser) must name a trusted origin", async () => {
    await openAuth(PASSWORDLESS);
    await signUpUser(t, { email: EMAIL, emailVerified: true });
    const { token } = await requestLink({ callbackURL: "/dashboard" });
    const sessionsBefore = await sessionRows();
    const form = (browser: TestBrowser, headers: Record<string, string> = {}) =>
      browser.request("POST", "/magic-link/verify", {
        rawBody: new URLSearchParams({ token: token!, callbackURL: "/dashboard" }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      });
    const forged: Array<[string | null, Record<string, string>]> = [
      ["https://evil.example", {}],
      [null, { referer: "https://evil.example/page" }],
      [null, {}],
    ];
    for (const [origin, headers] of forged) {
      const victim = new TestBrowser(t.auth, origin);
      const res = await form(victim, headers);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 403,
        body: { code: "INVALID_ORIGIN", message: "Invalid origin" },
      });
      expect(victim.cookies.has(SESSION_COOKIE)).toBe(false);
    }
    expect(await sessionRows()).toBe(sessionsBefore);
    // The confirmation page's own POST (same origin) still signs in with the unspent token.
    const person = new TestBrowser(t.auth);
    const ok = await form(person);
    expect(ok.status).toBe(302);
    expect(person.cookies.has(SESSION_COOKIE)).toBe(true);
  });
});
