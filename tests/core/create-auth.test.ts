import { createAuth } from "@tessera/auth-core";
import { MongoClient } from "mongodb";
import { describe, expect, inject, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { TEST_SECRET, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

let t: TestAuth | undefined;
const freshTestAuth = useFreshTestAuth();

describe("createAuth options", () => {
  it("fails at construction with a message naming a wrong option", () => {
    const database = { uri: "mongodb://127.0.0.1:1/x" };
    expect(() => createAuth({ database, secret: "short" })).toThrow(/secret/);
    expect(() => createAuth({ database, secret: TEST_SECRET, session: { expiresIn: -1 } })).toThrow(
      /session\.expiresIn/,
    );
    expect(() =>
      createAuth({
        database,
        secret: TEST_SECRET,
        emailAndPassword: { minPasswordLength: 20, maxPasswordLength: 10 },
      }),
    ).toThrow(/minPasswordLength/);
    // @ts-expect-error an unknown option is a mistake, not something to ignore
    expect(() => createAuth({ database, secret: TEST_SECRET, sesion: {} })).toThrow(/sesion/);
    expect(() => createAuth({ database, secret: TEST_SECRET, baseURL: "not a url" })).toThrow(/baseURL/);
    // Providers are built at construction: a generic provider configured twice fails here, not at
    // the first sign-in.
    const generic = {
      providerId: "acme",
      clientId: "c",
      discoveryUrl: "https://idp.example.com/.well-known/openid-configuration",
    };
    expect(() => createAuth({ database, secret: TEST_SECRET, genericOAuth: [generic, generic] })).toThrow(
      /acme.*configured twice/,
    );
  });

  it("keeps no global state: two instances with different secrets do not accept each other's cookies", async () => {
    t = await freshTestAuth();
    const other = createAuth({
      database: t.db,
      secret: "another-secret-0123456789abcdef",
      baseURL: "http://localhost:3000",
    });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const res = await other.handler(
      new Request("http://localhost:3000/api/auth/get-session", {
        headers: { cookie: browser.cookieHeader() },
      }),
    );
    expect(await res.json()).toBeNull();
  });
});

describe("auth.api", () => {
  it("has one method per endpoint, named at compile time", async () => {
    const t = await freshTestAuth();
    try {
      expect(typeof t.auth.api.signInEmail).toBe("function");
      expect(typeof t.auth.api.acceptInvitation).toBe("function");
      // @ts-expect-error a misspelt endpoint name does not compile
      expect(t.auth.api.signInEmial).toBeUndefined();
      const names = t.auth.endpoints.map((endpoint) => endpoint.name).sort();
      expect(Object.keys(t.auth.api).sort()).toEqual(names);
    } finally {
      await t.close();
    }
  });
});

describe("migrations", () => {
  it("records each migration once in _migrations and is idempotent", async () => {
    t = await freshTestAuth();
    const recorded = await t.db.collection("_migrations").find().toArray();
    expect(recorded.map((doc) => doc._id)).toContain("0001-core-indexes");
    expect(await t.auth.migrate()).toEqual([]);
    expect(await t.db.collection("_migrations").countDocuments()).toBe(recorded.length);
    const indexes = await t.db.collection("users").indexes();
    expect(indexes.find((index) => index.name === "email_unique")?.unique).toBe(true);
  });
});

describe("cleanup", () => {
  it("removes expired sessions and verifications and keeps live ones", async () => {
    t = await freshTestAuth();
    await signUp(new TestBrowser(t.auth), { email: "old@example.com" });
    t.advance(8 * 86400);
    await signUp(new TestBrowser(t.auth), { email: "new@example.com" });
    const now = t.now();
    await t.db.collection("verifications").insertMany([
      {
        identifier: "reset-password:a",
        value: "x",
        expiresAt: new Date(now.getTime() - 1000),
        createdAt: now,
        updatedAt: now,
      },
      {
        identifier: "reset-password:b",
        value: "x",
        expiresAt: new Date(now.getTime() + 60_000),
        createdAt: now,
        updatedAt: now,
      },
    ]);
    const removed = await t.auth.cleanup();
    expect(removed.sessions).toBe(1);
    expect(removed.verifications).toBe(1);
    expect(await t.db.collection("sessions").countDocuments()).toBe(1);
    expect(await t.db.collection("verifications").findOne({ identifier: "reset-password:b" })).not.toBeNull();
  });
});

describe("hooks", () => {
  it("a before-create user hook can change the data and the after hook sees the stored user", async () => {
    const seen: string[] = [];
    t = await freshTestAuth({
      hooks: {
        user: {
          create: {
            before: (data) => ({ data: { name: data.name.toUpperCase() } }),
            after: (doc) => {
              seen.push(doc.name);
            },
          },
        },
        session: { create: { after: (doc) => void seen.push(`session:${doc.userId.toHexString()}`) } },
      },
    });
    const res = await signUp(new TestBrowser(t.auth), { name: "Grace" });
    expect(res.status).toBe(200);
    expect(seen[0]).toBe("GRACE");
    expect(seen[1]).toBe(`session:${res.body.user.id}`);
    expect((await t.db.collection("users").findOne({}))?.name).toBe("GRACE");
  });

  it("a before-create user hook returning false refuses sign-up and nothing is written", async () => {
    t = await freshTestAuth({ hooks: { user: { create: { before: () => false } } } });
    const res = await signUp(new TestBrowser(t.auth));
    expect(res.status).toBe(417);
    expect(res.body).toEqual({ code: "UNABLE_TO_CREATE_ACCOUNT", message: "unable to create account" });
    expect(await t.db.collection("users").countDocuments()).toBe(0);
    expect(await t.db.collection("accounts").countDocuments()).toBe(0);
  });
});

describe("races", () => {
  it("20 concurrent sign-ups with one email create exactly one user and one credential account", async () => {
    t = await freshTestAuth();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => signUp(new TestBrowser(t!.auth), { email: "race@example.com" })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    expect(await t.db.collection("users").countDocuments({ email: "race@example.com" })).toBe(1);
    expect(await t.db.collection("accounts").countDocuments({ providerId: "credential" })).toBe(1);
  });
});

describe("server API", () => {
  it("returns data plus Set-Cookie headers, and throws catalogue errors", async () => {
    t = await freshTestAuth();
    const result = await t.auth.api.signUpEmail({
      body: { name: "Ada", email: "api@example.com", password: "correct horse battery" },
    });
    expect(result.status).toBe(200);
    expect(result.headers.getSetCookie().some((line) => line.startsWith("tessera.session_token="))).toBe(
      true,
    );
    await expect(
      t.auth.api.signInEmail({ body: { email: "api@example.com", password: "nope nope nope" } }),
    ).rejects.toMatchObject({
      code: "INVALID_EMAIL_OR_PASSWORD",
      status: 401,
      message: "Invalid email or password",
    });
  });

  it("connects by itself when given { uri, dbName } and closes its own client", async () => {
    const dbName = `t_uri_${Date.now()}`;
    const auth = createAuth({
      database: { uri: inject("mongoUri"), dbName },
      secret: TEST_SECRET,
      rateLimit: { enabled: false },
    });
    await auth.migrate();
    const result = await auth.api.signUpEmail({
      body: { name: "U", email: "uri@example.com", password: "correct horse battery" },
    });
    expect(result.status).toBe(200);
    const client = new MongoClient(inject("mongoUri"));
    expect(await client.db(dbName).collection("users").countDocuments()).toBe(1);
    await client.db(dbName).dropDatabase();
    await client.close();
    await auth.close();
  });
});

describe("account and session update hooks", () => {
  it("a password change runs the account update hooks; a sliding refresh runs the session update hooks", async () => {
    const seen: string[] = [];
    t = await freshTestAuth({
      hooks: {
        account: {
          update: {
            before: (data) => void seen.push(`account:before:${typeof data.password}`),
            after: () => void seen.push("account:after"),
          },
        },
        session: {
          update: { after: (doc) => void seen.push(`session:after:${doc.expiresAt instanceof Date}`) },
        },
      },
    });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    const changed = await browser.post("/change-password", {
      currentPassword: "correct horse battery",
      newPassword: "another horse battery",
    });
    expect(changed.status).toBe(200);
    expect(seen).toEqual(["account:before:string", "account:after"]);
    t.advance(86400 + 60);
    const read = await browser.get<{ session: { expiresAt: string } }>("/get-session");
    expect(read.status).toBe(200);
    expect(seen).toEqual(["account:before:string", "account:after", "session:after:true"]);
    const row = await t.db.collection("sessions").findOne({});
    expect(row?.expiresAt.getTime()).toBeGreaterThan(t.now().getTime() + 6 * 86400 * 1000);
  });

  it("an account update hook returning false keeps the old password", async () => {
    t = await freshTestAuth({ hooks: { account: { update: { before: () => false } } } });
    const browser = new TestBrowser(t.auth);
    await signUp(browser);
    await browser.post("/change-password", {
      currentPassword: "correct horse battery",
      newPassword: "another horse battery",
    });
    const old = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "ada@example.com",
      password: "correct horse battery",
    });
    expect(old.status).toBe(200);
  });
});

describe("mailer fallback", () => {
  it("warns once at startup when no mailer is configured", () => {
    const warnings: string[] = [];
    createAuth({
      database: { uri: "mongodb://127.0.0.1:1/x" },
      secret: TEST_SECRET,
      logger: { info: () => {}, warn: (message) => void warnings.push(message), error: () => {} },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no mailer configured/);
  });
});
