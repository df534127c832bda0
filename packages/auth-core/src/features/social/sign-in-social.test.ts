import { describe, expect, it } from "vitest";
import {
  API,
  newBrowser,
  providerConfig,
  returnToCallback,
  runSocialFlow,
  useSocialTestbed,
} from "#test/social.ts";
import { createTestAuth } from "#test/test-auth.ts";

/** POST /sign-in/social: the endpoint reference (docs/reference.md) fields, callback checks, state and verifier. */
const { server, t } = useSocialTestbed(["github", "google"]);

const verifications = () => t.db.collection("verifications").find({}).toArray();

describe("POST /sign-in/social", () => {
  it("answers the authorization URL with a fresh 32-char state, S256 challenge and a server-fixed redirect URI", async () => {
    const before = (await verifications()).length;
    const browser = newBrowser(t);
    const res = await browser.post<{ url: string; redirect: boolean }>("/sign-in/social", {
      provider: "google",
      callbackURL: "/dashboard",
      scopes: ["https://www.googleapis.com/auth/drive.readonly"],
      loginHint: "ada@example.com",
    });
    expect(res.status).toBe(200);
    expect(res.body.redirect).toBe(true);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(server.endpoints("google").authorization);
    const q = url.searchParams;
    expect(q.get("state")).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("redirect_uri")).toBe(`${API}/callback/google`);
    expect(q.get("scope")?.split(" ")).toContain("https://www.googleapis.com/auth/drive.readonly");
    expect(q.get("login_hint")).toBe("ada@example.com");
    expect(q.get("nonce")).toMatch(/^[A-Za-z0-9]{32}$/);
    // One state record, valid 10 minutes; its value reveals neither verifier nor target.
    const rows = await verifications();
    expect(rows.length).toBe(before + 1);
    const row = rows.find((r) => r.identifier === `oauth-state:${q.get("state")}`);
    expect(row).toBeDefined();
    expect(row?.expiresAt.getTime() - row?.createdAt.getTime()).toBe(600_000);
    expect(row?.value).not.toContain("dashboard");
    // The state cookie binds the flow to this browser.
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith("tessera.oauth_state="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it("sends a 128-char PKCE verifier the provider accepts, and a new state every time", async () => {
    const browser = newBrowser(t);
    const flow = await runSocialFlow(browser, server, { provider: "github", callbackURL: "/home" });
    const verifier = server.lastRequest("github", "token")?.form.code_verifier ?? "";
    expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{128}$/);
    expect(flow.location).toBe("/home");
    const again = await newBrowser(t).post<{ url: string }>("/sign-in/social", { provider: "github" });
    expect(new URL(again.body.url).searchParams.get("state")).not.toBe(flow.authorize.state);
  });

  it("disableRedirect answers redirect false with the same URL", async () => {
    const res = await newBrowser(t).post<{ url: string; redirect: boolean }>("/sign-in/social", {
      provider: "github",
      disableRedirect: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.redirect).toBe(false);
    expect(res.body.url).toContain(server.endpoints("github").authorization);
  });

  it("refuses an unknown or unconfigured provider with 404 Provider not found and stores nothing", async () => {
    const before = (await verifications()).length;
    for (const provider of ["myspace", "apple"]) {
      const res = await newBrowser(t).post("/sign-in/social", { provider });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "PROVIDER_NOT_FOUND", message: "Provider not found" });
    }
    expect((await verifications()).length).toBe(before);
  });

  it.each([
    ["callbackURL", "INVALID_CALLBACK_URL", "Invalid callbackURL"],
    ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL", "Invalid errorCallbackURL"],
    ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL", "Invalid newUserCallbackURL"],
  ])("refuses an untrusted %s with 403 and stores no state", async (field, code, message) => {
    const before = (await verifications()).length;
    for (const evil of ["https://evil.example/x", "//evil.example", "/\\evil.example"]) {
      const res = await newBrowser(t).post("/sign-in/social", { provider: "github", [field]: evil });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code, message });
      expect(res.headers.getSetCookie().join()).not.toContain("oauth_state");
    }
    expect((await verifications()).length).toBe(before);
  });

  it("refuses malformed fields with 400 and stores nothing", async () => {
    const before = (await verifications()).length;
    for (const body of [
      { provider: { $ne: null } },
      { provider: "github", scopes: "openid" },
      { provider: "github", disableRedirect: "yes" },
      { provider: "github", extra: 1 },
    ]) {
      const res = await newBrowser(t).post<{ code: string }>("/sign-in/social", body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
    }
    expect((await verifications()).length).toBe(before);
  });
});

describe("POST /sign-in/social without a base URL", () => {
  it("requires callbackURL (callbackURL is required) and works with one", async () => {
    const bare = await createTestAuth({
      baseURL: undefined,
      socialProviders: { github: providerConfig(server, "github") },
    });
    try {
      const res = await newBrowser(bare).post("/sign-in/social", { provider: "github" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "CALLBACK_URL_REQUIRED", message: "callbackURL is required" });
      expect(await bare.db.collection("verifications").countDocuments()).toBe(0);
      const browser = newBrowser(bare);
      const ok = await browser.post<{ url: string }>("/sign-in/social", {
        provider: "github",
        callbackURL: "/welcome",
      });
      expect(ok.status).toBe(200);
      const back = await returnToCallback(browser, await server.authorize(ok.body.url));
      expect(back.headers.get("location")).toBe("/welcome");
    } finally {
      await bare.close();
    }
  });
});
