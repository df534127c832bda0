import { type AuthOptions, createAuth } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { TEST_SECRET, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * A wrong option fails at startup with a message naming it
 * (hooks, mail hooks, rate-limit rule keys, baseURL, ipAddressHeader, trustedOrigins). Each of these
 * was accepted before and then silently did nothing or failed every request.
 */
const database = { uri: "mongodb://127.0.0.1:1/never-connected" };

function construct(options: Record<string, unknown>): () => unknown {
  return () => createAuth({ database, secret: TEST_SECRET, ...options } as AuthOptions);
}

let t: TestAuth | undefined;
const freshTestAuth = useFreshTestAuth();

describe("hooks and mail hooks are validated at startup", () => {
  it.each([
    [{ hooks: { users: { create: { before: () => false } } } }, "hooks.users: unknown option"],
    [{ hooks: { user: { craete: { before: () => false } } } }, "hooks.user.craete: unknown option"],
    [{ hooks: { user: { create: { befor: () => false } } } }, "hooks.user.create.befor: unknown option"],
    [{ hooks: { user: { create: { before: "nope" } } } }, "hooks.user.create.before: expected a function"],
    [{ hooks: { account: { update: { after: {} } } } }, "hooks.account.update.after: expected a function"],
    [{ hooks: { user: "x" } }, "hooks.user: Invalid input: expected object"],
    [{ mail: { sendResetPasword: () => {} } }, "mail.sendResetPasword: unknown option"],
    [{ mail: { sendVerificationEmail: true } }, "mail.sendVerificationEmail: expected a function"],
  ])("refuses %j naming the option", (options, message) => {
    expect(construct(options)).toThrow(`Invalid Tessera options — ${message}`);
  });

  it.each([
    ["session", "hooks.session.delete"],
    ["account", "hooks.account.delete"],
  ])("refuses %s delete hooks, which nothing would call", (entity, path) => {
    expect(construct({ hooks: { [entity]: { delete: { after: () => {} } } } })).toThrow(
      `${path}: not supported: only users have delete hooks (hooks.user.delete)`,
    );
  });

  it("accepts every documented hook and mail hook, and calls the app's own functions", async () => {
    const calls: string[] = [];
    const hook = { before: () => void calls.push("user.create.before"), after: () => {} };
    const hooks = {
      user: { create: hook, update: hook, delete: hook },
      session: { create: { after: () => {} }, update: { before: () => undefined } },
      account: { create: {}, update: { after: async () => {} } },
    };
    const mail = {
      sendVerificationEmail: () => {},
      sendResetPassword: async () => {},
      sendChangeEmailVerification: () => {},
      sendDeleteAccountVerification: () => {},
    };
    t = await freshTestAuth({ hooks, mail });
    expect(t.auth.context.options.hooks).toBe(hooks);
    const res = await signUp(new TestBrowser(t.auth));
    expect(res.status).toBe(200);
    expect(calls).toEqual(["user.create.before"]);
  });

  it("refuses a rate-limit rule keyed without a leading / (it could never match)", () => {
    expect(construct({ rateLimit: { customRules: { "sign-in/email": false } } })).toThrow(
      "rateLimit.customRules.sign-in/email: a rule is keyed by an endpoint path starting with /",
    );
    expect(
      construct({ rateLimit: { customRules: { "/sign-in/email": { window: 60, max: 5 } } } }),
    ).not.toThrow();
  });
});

describe("baseURL is an absolute http(s) origin", () => {
  it.each([
    "localhost:3000",
    "javascript:alert(1)",
    "ftp://auth.example.com",
    "https:auth.example.com",
    "HTTPS://auth.example.com",
    " https://auth.example.com",
    "https://",
  ])("refuses %j naming baseURL", (baseURL) => {
    expect(construct({ baseURL })).toThrow(
      `baseURL: must be an absolute http(s) URL such as https://auth.example.com (got "${baseURL}")`,
    );
  });

  it.each([
    ["https://auth.example.com/?next=1", "baseURL: must not have a query or fragment"],
    ["https://auth.example.com#x", "baseURL: must not have a query or fragment"],
    ["https://user:pw@auth.example.com", "baseURL: must not contain credentials"],
    ["https://auth.example.com/app", 'baseURL: its path "/app" would be ignored'],
  ])("refuses %j", (baseURL, message) => {
    expect(construct({ baseURL })).toThrow(message);
  });

  it.each([
    ["https://auth.example.com", "https://auth.example.com/api/auth"],
    ["https://auth.example.com/", "https://auth.example.com/api/auth"],
    ["https://auth.example.com/api/auth", "https://auth.example.com/api/auth"],
    ["http://localhost:3000", "http://localhost:3000/api/auth"],
  ])("accepts %j: the API is served at %j", (baseURL, apiURL) => {
    const auth = createAuth({ database, secret: TEST_SECRET, baseURL, logger: silent });
    expect(auth.context.apiURL).toBe(apiURL);
  });

  it("sign-up with required verification mails a link on the configured origin (was 500 with the user stored)", async () => {
    t = await freshTestAuth({
      baseURL: "https://auth.example.com",
      trustedOrigins: ["http://localhost:3000"],
      emailAndPassword: { requireEmailVerification: true },
    });
    const res = await signUp(new TestBrowser(t.auth));
    expect(res.status).toBe(200);
    expect(t.outbox.latestTo("ada@example.com")?.text).toContain(
      "https://auth.example.com/api/auth/verify-email?token=",
    );
    expect(await t.db.collection("users").countDocuments({ email: "ada@example.com" })).toBe(1);
  });
});

describe("advanced.requestTimeoutMs is a backstop above the provider timeout", () => {
  it("refuses a bound that would cut a provider call short of its own timeout and error redirect", () => {
    expect(construct({ advanced: { requestTimeoutMs: 5000 } })).toThrow(
      "advanced.requestTimeoutMs: must be above advanced.providerTimeoutMs",
    );
    expect(construct({ advanced: { requestTimeoutMs: 2000, providerTimeoutMs: 2000 } })).toThrow(
      "advanced.requestTimeoutMs: must be above advanced.providerTimeoutMs",
    );
  });

  it("follows a raised provider timeout when not given: providerTimeoutMs + 5 s", () => {
    const auth = construct({ advanced: { providerTimeoutMs: 120_000 } })() as {
      context: { options: { advanced: unknown } };
      close(): Promise<void>;
    };
    expect(auth.context.options.advanced).toMatchObject({
      requestTimeoutMs: 125_000,
      providerTimeoutMs: 120_000,
    });
    void auth.close();
  });

  it("accepts the defaults (30 s over 10 s), a larger bound, and 0 (off)", () => {
    for (const advanced of [
      {},
      { requestTimeoutMs: 2000, providerTimeoutMs: 1000 },
      { requestTimeoutMs: 0 },
    ]) {
      const auth = construct({ advanced })() as {
        context: { options: { advanced: unknown } };
        close(): Promise<void>;
      };
      expect(auth.context.options.advanced).toMatchObject(
        "requestTimeoutMs" in advanced ? advanced : { requestTimeoutMs: 30_000, providerTimeoutMs: 10_000 },
      );
      void auth.close();
    }
  });
});

describe("advanced.ipAddressHeader is an HTTP header name", () => {
  it.each(["X-Forwarded For", "x-forwarded-for:", "", "x-real-ip\n"])("refuses %j", (header) => {
    expect(construct({ advanced: { ipAddressHeader: header } })).toThrow(
      "advanced.ipAddressHeader: must be an HTTP header name such as x-forwarded-for",
    );
  });

  it("a valid custom header is read from a trusted proxy: the session records the client address", async () => {
    t = await freshTestAuth({
      advanced: { trustedProxies: ["127.0.0.1"], ipAddressHeader: "CF-Connecting-IP" },
    });
    const res = await new TestBrowser(t.auth).post(
      "/sign-up/email",
      { name: "Ada", email: "ada@example.com", password: "correct horse battery" },
      { headers: { "cf-connecting-ip": "203.0.113.9" } },
    );
    expect(res.status).toBe(200);
    const sessions = await t.db.collection("sessions").find().toArray();
    expect(sessions.map((session) => session.ipAddress)).toEqual(["203.0.113.9"]);
  });
});

describe("trustedOrigins entries are origin patterns", () => {
  it.each([
    "https://*.example.com/some/path",
    "*.example.com?x=1",
    "myapp://callback",
    "javascript:alert(1)",
    "https://user@app.example.com",
    "https://app.example.com:*",
    "https://app.example.com:99999",
    "app example.com",
  ])("refuses %j naming it", (entry) => {
    expect(construct({ trustedOrigins: ["https://ok.example.com", entry] })).toThrow(
      `trustedOrigins.1: "${entry}" is not an origin pattern`,
    );
  });

  it("an exact URL with a path is trusted by its origin, as before", () => {
    const auth = construct({ trustedOrigins: ["https://app.example.com/login"] })() as {
      context: { origins: { isTrustedOrigin(origin: string): boolean } };
      close(): Promise<void>;
    };
    expect(auth.context.origins.isTrustedOrigin("https://app.example.com")).toBe(true);
    void auth.close();
  });

  it("a wildcard entry written with a trailing slash trusts its hosts, like an exact one does", async () => {
    t = await freshTestAuth({ trustedOrigins: ["https://*.example.com/", "https://exact.example.org/"] });
    const auth = t.auth;
    const signUpWith = (email: string, callbackURL: string) =>
      new TestBrowser(auth).post("/sign-up/email", {
        name: "Ada",
        email,
        password: "correct horse battery",
        callbackURL,
      });
    expect((await signUpWith("ada@example.com", "https://app.example.com/welcome")).status).toBe(200);
    expect((await signUpWith("bob@example.com", "https://exact.example.org/welcome")).status).toBe(200);
    const refused = await signUpWith("eve@example.com", "https://example.com.evil.test/welcome");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    const emails = (await t.db.collection("users").find().toArray()).map((user) => user.email).sort();
    expect(emails).toEqual(["ada@example.com", "bob@example.com"]);
  });
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe("emailAndPassword.isPasswordBreached", () => {
  it.each([true, "https://api.pwnedpasswords.com", {}])("refuses %j naming the option", (value) => {
    expect(construct({ emailAndPassword: { isPasswordBreached: value } })).toThrow(
      "Invalid Tessera options — emailAndPassword.isPasswordBreached: expected a function",
    );
  });

  it("accepts a synchronous or an async function", () => {
    expect(construct({ emailAndPassword: { isPasswordBreached: () => false } })).not.toThrow();
    expect(construct({ emailAndPassword: { isPasswordBreached: async () => false } })).not.toThrow();
  });
});
