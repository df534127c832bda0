import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { TEST_ORIGIN, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * docs/security.md "Responses that carry or follow a token": every
 * answer is `Cache-Control: no-store` and `Referrer-Policy: no-referrer`. The mailed links of
 * verify-email and delete-user/callback redirected without them, so the token in their URL could be
 * kept by a cache or handed on in the Referer of the page the redirect lands on.
 */
let t: TestAuth | null = null;
const freshTestAuth = useFreshTestAuth();

const ADA = "ada@example.com";

function expectTokenSafe(headers: Headers): void {
  expect(headers.get("cache-control")).toBe("no-store");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
}

/** The first link of the latest mail to the address. */
function mailedLink(test: TestAuth, email: string): URL {
  const text = test.outbox.latestTo(email)?.text ?? "";
  return new URL(text.match(/https?:\/\/\S+/)?.[0] ?? "http://missing.invalid/");
}

const apiPathOf = (link: URL) => `${link.pathname.replace("/api/auth", "")}${link.search}`;

describe("GET /verify-email", () => {
  it("redirects a valid link with no-store and no-referrer, and verifies the address", async () => {
    t = await freshTestAuth();
    await signUp(new TestBrowser(t.auth));
    await new TestBrowser(t.auth).post("/send-verification-email", { email: ADA, callbackURL: "/welcome" });
    const link = mailedLink(t, ADA);
    expect(link.searchParams.get("token")).toBeTruthy();
    const res = await new TestBrowser(t.auth).get(apiPathOf(link));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/welcome");
    expectTokenSafe(res.headers);
    expect((await t.db.collection("users").findOne({ email: ADA }))?.emailVerified).toBe(true);
  });

  it("redirects a bad link to the error with the same headers, and verifies nothing", async () => {
    t = await freshTestAuth();
    await signUp(new TestBrowser(t.auth));
    const res = await new TestBrowser(t.auth).get("/verify-email?token=not-a-token&callbackURL=%2Fwelcome");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/welcome?error=invalid_token");
    expectTokenSafe(res.headers);
    expect((await t.db.collection("users").findOne({ email: ADA }))?.emailVerified).toBe(false);
  });

  it("answers JSON without a callbackURL with the same headers", async () => {
    t = await freshTestAuth();
    const res = await new TestBrowser(t.auth).get("/verify-email?token=not-a-token");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "INVALID_VERIFICATION_TOKEN", message: "invalid_token" });
    expectTokenSafe(res.headers);
  });
});

describe("GET /delete-user/callback", () => {
  it("redirects the mailed link with no-store and no-referrer, and deletes the user", async () => {
    t = await freshTestAuth({
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
    });
    const ada = new TestBrowser(t.auth);
    await signUp(ada);
    const asked = await ada.post("/delete-user", { callbackURL: "/goodbye" });
    expect(asked.body).toEqual({ success: true, message: "Verification email sent" });
    expect(t.outbox.messages().map((mail) => mail.kind)).toEqual(["delete-account"]);
    const res = await ada.get(apiPathOf(mailedLink(t, ADA)));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/goodbye");
    expectTokenSafe(res.headers);
    expect(ada.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await t.db.collection("users").countDocuments({ email: ADA })).toBe(0);
  });

  it("redirects a bad token to the error with the same headers, and deletes nothing", async () => {
    t = await freshTestAuth({
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
    });
    const ada = new TestBrowser(t.auth);
    await signUp(ada);
    const res = await ada.get(`/delete-user/callback?token=${"x".repeat(32)}&callbackURL=%2Fgoodbye`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/goodbye\?error=/);
    expectTokenSafe(res.headers);
    expect(await t.db.collection("users").countDocuments({ email: ADA })).toBe(1);
  });
});

describe("the other answers that carry or follow a token", () => {
  it("GET /reset-password/{token} redirects with them", async () => {
    t = await freshTestAuth();
    await signUp(new TestBrowser(t.auth));
    await new TestBrowser(t.auth).post("/request-password-reset", { email: ADA, redirectTo: "/reset" });
    const res = await new TestBrowser(t.auth).get(apiPathOf(mailedLink(t, ADA)));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/reset\?token=/);
    expectTokenSafe(res.headers);
  });

  it("the provider callback redirects with them", async () => {
    t = await freshTestAuth({ socialProviders: { github: { clientId: "id", clientSecret: "secret" } } });
    const res = await new TestBrowser(t.auth).get("/callback/github?code=a-code&state=a-state");
    expect(res.status).toBe(302);
    expectTokenSafe(res.headers);
  });

  it("sign-up and sign-in answer their session token with them", async () => {
    t = await freshTestAuth();
    const signedUp = await signUp(new TestBrowser(t.auth));
    expect(signedUp.body.token).toEqual(expect.any(String));
    expectTokenSafe(signedUp.headers);
    const signedIn = await new TestBrowser(t.auth).post<{ token: string }>("/sign-in/email", {
      email: ADA,
      password: "correct horse battery",
    });
    expect(signedIn.body.token).toEqual(expect.any(String));
    expectTokenSafe(signedIn.headers);
  });

  it("every registered endpoint answers with them, whatever it answers", async () => {
    t = await freshTestAuth();
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    for (const endpoint of t.auth.endpoints) {
      const methods = typeof endpoint.method === "string" ? [endpoint.method] : endpoint.method;
      const path = endpoint.path.replace(/:(\w+)/g, "x");
      for (const method of methods) {
        const res = await browser.request(method, path, method === "GET" ? {} : { body: {} });
        expect(res.headers.get("cache-control"), `${method} ${path}`).toBe("no-store");
        expect(res.headers.get("referrer-policy"), `${method} ${path}`).toBe("no-referrer");
      }
    }
    const notFound = await browser.get(`${TEST_ORIGIN}/api/auth/no-such-endpoint`);
    expectTokenSafe(notFound.headers);
  });
});

describe("auth.api answers carry the same headers, for apps that forward them", () => {
  it("a JSON answer (sign-in with its token) and a redirect (verify-email) are no-store and no-referrer", async () => {
    t = await freshTestAuth();
    await signUp(new TestBrowser(t.auth));
    const signedIn = await t.auth.api.signInEmail({
      body: { email: ADA, password: "correct horse battery" },
    });
    expect(signedIn.status).toBe(200);
    expectTokenSafe(signedIn.headers);
    await new TestBrowser(t.auth).post("/send-verification-email", { email: ADA, callbackURL: "/welcome" });
    const token = mailedLink(t, ADA).searchParams.get("token") ?? "";
    const verified = await t.auth.api.verifyEmail({ query: { token, callbackURL: "/welcome" } });
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe("/welcome");
    expectTokenSafe(verified.headers);
  });
});
