import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpUser } from "#test/browser.ts";
import { addMember, createOrganization, signIn } from "#test/organization.ts";
import { createTestAuth, TEST_ORIGIN, type TestAuth } from "#test/test-auth.ts";
import { applyCookies, createRemixAuth, redirectWithCookies } from "./index.ts";

/**
 * `@tessera/auth-core/remix` as a loader or action calls it: real requests to a real auth on the
 * test database, the thrown Responses read as Remix would.
 */
let t: TestAuth;
let remix: ReturnType<typeof createRemixAuth>;

beforeAll(async () => {
  t = await createTestAuth({ admin: { adminRoles: ["admin"] } });
  // The app's getAuth is often async (the demo's is): the helpers take a function too.
  remix = createRemixAuth(async () => t.auth, { signInPath: "/login" });
});
afterAll(() => t.close());

function page(path: string, cookie = ""): Request {
  return new Request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { cookie } : {} });
}

async function thrown(run: Promise<unknown>): Promise<Response> {
  const outcome = await run.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Response)) throw new Error(`expected a thrown Response, got ${String(outcome)}`);
  return outcome;
}

describe("the /api/auth/* resource route", () => {
  it("passes the load context's address: the session it creates records it", async () => {
    const request = new Request(`${TEST_ORIGIN}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: TEST_ORIGIN },
      body: JSON.stringify({ name: "Route", email: "route@example.com", password: "correct horse battery" }),
    });
    const res = await remix.handler({ request, context: { remoteAddress: "203.0.113.7" } });
    expect(res.status).toBe(200);
    const user = await t.db.collection("users").findOne({ email: "route@example.com" });
    const session = await t.db.collection("sessions").findOne({ userId: user?._id });
    expect(session?.ipAddress).toBe("203.0.113.7");
  });

  it("without an address in the context: the request is still answered, the session records none", async () => {
    const request = new Request(`${TEST_ORIGIN}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: TEST_ORIGIN },
      body: JSON.stringify({ name: "Bare", email: "bare@example.com", password: "correct horse battery" }),
    });
    const res = await remix.handler({ request, context: {} });
    expect(res.status).toBe(200);
    const user = await t.db.collection("users").findOne({ email: "bare@example.com" });
    expect((await t.db.collection("sessions").findOne({ userId: user?._id }))?.ipAddress).toBeNull();
  });
});

describe("session guards", () => {
  it("requireSession: a signed-out visitor is sent to sign-in with the page's path and query to come back to", async () => {
    const res = await thrown(remix.requireSession(page("/orgs/acme?tab=teams")));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Forgs%2Facme%3Ftab%3Dteams");
  });

  it("requireSession: a signed-in visitor gets the session and user; sessionForClient drops the token", async () => {
    const ada = await signUpUser(t, { email: "ada@example.com", name: "Ada" });
    const data = await remix.requireSession(page("/account", ada.browser.cookieHeader()));
    expect(data.user.email).toBe("ada@example.com");
    const forClient = remix.sessionForClient(data);
    expect(forClient.session).not.toHaveProperty("token");
    expect(forClient.session.id).toBe(data.session.id);
    expect(JSON.stringify(forClient)).not.toContain(data.session.token);
  });

  it("requireAnonymous: a signed-in visitor of sign-in is sent on; a signed-out one stays", async () => {
    const bob = await signUpUser(t, { email: "bob@example.com", name: "Bob" });
    const res = await thrown(remix.requireAnonymous(page("/login", bob.browser.cookieHeader())));
    expect(res.headers.get("location")).toBe("/");
    await expect(remix.requireAnonymous(page("/login"))).resolves.toBeUndefined();
  });

  it("requirePermission: an admin passes, a user gets 403, a signed-out visitor goes to sign-in", async () => {
    const root = await signUpUser(t, { email: "root@example.com", name: "Root", role: "admin" });
    const carol = await signUpUser(t, { email: "carol@example.com", name: "Carol" });
    const need = { user: ["list"] };
    const passed = await remix.requirePermission(page("/admin", root.browser.cookieHeader()), need);
    expect(passed.user.id).toBe(root.id);
    const refused = await thrown(remix.requirePermission(page("/admin", carol.browser.cookieHeader()), need));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe("Forbidden");
    expect((await thrown(remix.requirePermission(page("/admin"), need))).status).toBe(302);
  });

  it("requireRole: a holder of one of the roles passes (a stored list too), others get 403", async () => {
    const support = await signUpUser(t, { email: "sam@example.com", name: "Sam", role: "admin,support" });
    const plain = await signUpUser(t, { email: "pat@example.com", name: "Pat" });
    const passed = await remix.requireRole(page("/support", support.browser.cookieHeader()), [
      "support",
      "owner",
    ]);
    expect(passed.user.id).toBe(support.id);
    // Stored without a role: the default one ("user").
    expect((await remix.requireRole(page("/x", plain.browser.cookieHeader()), "user")).user.id).toBe(
      plain.id,
    );
    const refused = await thrown(
      remix.requireRole(page("/support", plain.browser.cookieHeader()), "support"),
    );
    expect(refused.status).toBe(403);
    expect((await thrown(remix.requireRole(page("/support"), "support"))).status).toBe(302);
  });

  it("requireOrganizationPermission: the owner passes, a plain member and an outsider get 403", async () => {
    const owner = await signIn(t, "owner");
    const member = await signIn(t, "member");
    const outsider = await signIn(t, "outsider");
    const organizationId = await createOrganization(owner, "acme");
    await addMember(t, organizationId, member, "member");
    const need = { permissions: { invitation: ["create"] }, organizationId };
    const passed = await remix.requireOrganizationPermission(page("/o", owner.browser.cookieHeader()), need);
    expect(passed.user.id).toBe(owner.userId);
    for (const who of [member, outsider]) {
      const refused = await thrown(
        remix.requireOrganizationPermission(page("/o", who.browser.cookieHeader()), need),
      );
      expect(refused.status).toBe(403);
    }
    const unknown = { ...need, organizationId: new ObjectId().toHexString() };
    expect(
      (await thrown(remix.requireOrganizationPermission(page("/o", owner.browser.cookieHeader()), unknown)))
        .status,
    ).toBe(403);
  });
});

describe("redirectWithCookies", () => {
  it("carries every Set-Cookie line of an auth.api answer to the browser on a 302", async () => {
    const result = await t.auth.api.signUpEmail({
      body: { name: "Dan", email: "dan@example.com", password: "correct horse battery" },
    });
    const cookies = result.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    const res = redirectWithCookies("/welcome", result, new Headers({ "set-cookie": "app=1; Path=/" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/welcome");
    expect(res.headers.getSetCookie()).toEqual([...cookies, "app=1; Path=/"]);
  });
});

describe("applyCookies", () => {
  it("a second auth.api call in the same action sees the session the first one created, and not one it ended", async () => {
    const signUp = await t.auth.api.signUpEmail({
      body: { name: "Eve", email: "eve@example.com", password: "correct horse battery" },
    });
    const request = page("/sign-up", "theme=dark");
    const after = applyCookies(request, signUp);
    expect(after.get("cookie")).toContain("theme=dark");
    const { data } = await t.auth.api.getSession({ headers: after });
    expect(data?.user.email).toBe("eve@example.com");
    const signOut = await t.auth.api.signOut({
      headers: new Headers({ cookie: after.get("cookie") ?? "", origin: TEST_ORIGIN }),
    });
    const ended = applyCookies(new Request(request, { headers: after }), signOut);
    expect(ended.get("cookie")).toBe("theme=dark");
    expect((await t.auth.api.getSession({ headers: ended })).data).toBeNull();
  });
});

describe("onBehalfOf: a form action's call is limited like the same call over HTTP", () => {
  it("the 4th sign-in from one address in 10 s is refused 429 before the password is checked; another address is not held back", async () => {
    const limited = await createTestAuth({ rateLimit: { enabled: true } });
    try {
      const helpers = createRemixAuth(limited.auth);
      await limited.auth.api.signUpEmail({
        body: { name: "Fay", email: "fay@example.com", password: "correct horse battery" },
      });
      const action = (address: string, password: string) => {
        const request = new Request(`${TEST_ORIGIN}/sign-in`, {
          method: "POST",
          headers: { origin: TEST_ORIGIN },
        });
        return limited.auth.api
          .signInEmail({
            body: { email: "fay@example.com", password },
            ...helpers.onBehalfOf({ request, context: { remoteAddress: address } }),
          })
          .then(
            () => 200,
            (error: { status: number; code: string; details?: { retryAfter?: number } }) =>
              `${error.status} ${error.code} ${error.details?.retryAfter !== undefined}`,
          );
      };
      for (let i = 0; i < 3; i++)
        expect(await action("198.51.100.1", "wrong password")).toBe("401 INVALID_EMAIL_OR_PASSWORD false");
      const sessionsBefore = await limited.db.collection("sessions").countDocuments();
      expect(await action("198.51.100.1", "correct horse battery")).toBe("429 TOO_MANY_REQUESTS true");
      expect(await limited.db.collection("sessions").countDocuments()).toBe(sessionsBefore);
      expect(await action("198.51.100.2", "correct horse battery")).toBe(200);
      // The app's own calls (no onBehalfOf) are not limited.
      expect(
        (
          await limited.auth.api.signInEmail({
            body: { email: "fay@example.com", password: "correct horse battery" },
          })
        ).status,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("onBehalfOf without a socket address", () => {
  it("not limited (one bucket would let one visitor lock all out) and said once; with trustedProxies the forwarded address is limited", async () => {
    const warnings: string[] = [];
    const logger = { info: () => {}, warn: (message: string) => warnings.push(message), error: () => {} };
    const bare = await createTestAuth({ rateLimit: { enabled: true }, logger });
    const proxied = await createTestAuth({
      rateLimit: { enabled: true },
      logger,
      advanced: { trustedProxies: ["*"] },
    });
    try {
      const attempt = (t: TestAuth, forwardedFor?: string) => {
        const headers: Record<string, string> = { origin: TEST_ORIGIN };
        if (forwardedFor) headers["x-forwarded-for"] = forwardedFor;
        const request = new Request(`${TEST_ORIGIN}/sign-in`, { method: "POST", headers });
        return t.auth.api
          .signInEmail({
            body: { email: "nobody@example.com", password: "wrong password" },
            ...createRemixAuth(t.auth).onBehalfOf({ request, context: {} }),
          })
          .then(
            () => 200,
            (error: { status: number }) => error.status,
          );
      };
      const bareAnswers = [];
      for (let i = 0; i < 5; i++) bareAnswers.push(await attempt(bare));
      expect(bareAnswers).toEqual([401, 401, 401, 401, 401]);
      expect(warnings.filter((w) => w.includes("rateLimit: true had no client address"))).toHaveLength(1);
      const proxiedAnswers = [];
      for (let i = 0; i < 4; i++) proxiedAnswers.push(await attempt(proxied, "203.0.113.9"));
      expect(proxiedAnswers).toEqual([401, 401, 401, 429]);
      expect(await attempt(proxied, "203.0.113.10")).toBe(401);
    } finally {
      await bare.close();
      await proxied.close();
    }
  });
});

describe("access guards read the session afresh", () => {
  it("a session revoked while its cookie cache is still valid: requireSession still passes (a display read), requireRole/requirePermission send it to sign-in", async () => {
    const cached = await createTestAuth({ session: { cookieCache: { enabled: true, maxAge: 60 } } });
    try {
      const helpers = createRemixAuth(cached.auth);
      const boss = await signUpUser(cached, { email: "boss@example.com", name: "Boss", role: "admin" });
      const cookie = boss.browser.cookieHeader();
      expect(cookie).toContain("tessera.session_data=");
      await cached.db.collection("sessions").deleteMany({});
      // The cache answers a display read until it expires (session.cookieCache, docs/security.md).
      expect((await helpers.requireSession(page("/", cookie))).user.id).toBe(boss.id);
      for (const guard of [
        helpers.requireRole(page("/admin", cookie), "admin"),
        helpers.requirePermission(page("/admin", cookie), { user: ["list"] }),
      ]) {
        const res = await thrown(guard);
        expect(res.status).toBe(302);
        expect(res.headers.get("location")).toBe("/sign-in?redirectTo=%2Fadmin");
      }
    } finally {
      await cached.close();
    }
  });
});

describe("requireSession's return path", () => {
  it("never names another site: a request path that a browser would read as another host comes back as /", async () => {
    const res = await thrown(remix.requireSession(new Request(`${TEST_ORIGIN}//evil.example/x`)));
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2F");
  });
});
