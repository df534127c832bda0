import { createAuth } from "@tessera/auth-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { createTestAuth, TEST_ORIGIN, TEST_SECRET, type TestAuth } from "#test/test-auth.ts";
import { expectCatalogueError, PASSWORD, sendRaw } from "./helpers.ts";

/**
 * Matrix L and docs/decisions/0010-origins-csrf-and-rate-limits.md "Rate limits": 3 / 10 s on sign-in, 100 / 10 s by default, per client
 * address and path, counted in MongoDB, keyed on the socket unless a trusted proxy forwarded it.
 */
let t: TestAuth;
beforeEach(async () => {
  // A frozen clock: the windows below are measured in advance() steps, not in scrypt time.
  t = await createTestAuth(
    { rateLimit: { enabled: true }, advanced: { trustedProxies: ["10.0.0.1"] } },
    { frozen: true },
  );
  await signUp(new TestBrowser(t.auth), { email: "ada@example.com", password: PASSWORD });
  // The sign-up above is a different path: it does not use up the sign-in budget.
});
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await t.close();
});

const wrongSignIn = (
  auth = t.auth,
  remoteAddress = "192.0.2.1",
  headers: Record<string, string> = {},
  email = "ada@example.com",
) =>
  sendRaw(auth, "POST", "/sign-in/email", {
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ email, password: "wrong password" }),
    remoteAddress,
  });

function expectLimited(res: { status: number; json: unknown; headers: Headers }, maxSeconds = 10) {
  expectCatalogueError(res, 429, "TOO_MANY_REQUESTS", "Too many requests. Please try again later.");
  const retryAfter = Number(res.headers.get("x-retry-after"));
  // RFC 9110 Retry-After says the same, for clients and gateways that read only the standard header.
  expect(res.headers.get("retry-after")).toBe(String(retryAfter));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

describe("sign-in: 3 per 10 s per address (L1)", () => {
  it("answers the 4th attempt 429 with X-Retry-After, before checking the password", async () => {
    for (let i = 0; i < 3; i++) expect((await wrongSignIn()).status).toBe(401);
    const sessionsBefore = await t.db.collection("sessions").countDocuments();
    const limited = await sendRaw(t.auth, "POST", "/sign-in/email", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }),
      remoteAddress: "192.0.2.1",
    });
    expectLimited(limited);
    expect(await t.db.collection("sessions").countDocuments()).toBe(sessionsBefore);
  });

  it("counts 3 within any 10 s, across a window boundary too", async () => {
    expect((await wrongSignIn()).status).toBe(401);
    t.advance(6);
    expect((await wrongSignIn()).status).toBe(401);
    expect((await wrongSignIn()).status).toBe(401);
    t.advance(3.5); // 9.5 s after the first attempt
    expectLimited(await wrongSignIn());
    t.advance(1); // the first attempt left the window: one slot again
    expect((await wrongSignIn()).status).toBe(401);
    expectLimited(await wrongSignIn());
  });

  it("lets another address through while one is limited", async () => {
    for (let i = 0; i < 3; i++) await wrongSignIn();
    expectLimited(await wrongSignIn());
    expect((await wrongSignIn(t.auth, "198.51.100.7")).status).toBe(401);
  });

  it("allows the address again after the window", async () => {
    for (let i = 0; i < 3; i++) await wrongSignIn();
    expectLimited(await wrongSignIn());
    t.advance(11);
    expect((await wrongSignIn()).status).toBe(401);
  });

  it("ignores the query string: one bucket per path (L4)", async () => {
    for (let i = 0; i < 3; i++) await wrongSignIn();
    const res = await sendRaw(t.auth, "POST", `/sign-in/email?x=${Math.random()}`, {
      headers: { "content-type": "application/json" },
      body: "{}",
      remoteAddress: "192.0.2.1",
    });
    expectLimited(res);
  });

  it("admits exactly 3 of 20 parallel attempts (L6)", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => wrongSignIn()));
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it("keeps the counters in MongoDB, shared by two instances on one database", async () => {
    const other = createAuth({
      database: t.db,
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      clock: t.now,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    expect((await wrongSignIn(t.auth)).status).toBe(401);
    expect((await wrongSignIn(other)).status).toBe(401);
    expect((await wrongSignIn(t.auth)).status).toBe(401);
    expectLimited(await wrongSignIn(other));
    expectLimited(await wrongSignIn(t.auth));
    expect(await t.db.collection("rateLimits").countDocuments()).toBeGreaterThanOrEqual(3);
  });

  it("does not count server API calls", async () => {
    // 4, above the limit of 3; a 6th failure on the account would meet its own throttle
    // (features/sign-in-throttle), which server calls count towards like any other guess.
    for (let i = 0; i < 4; i++) {
      await expect(
        t.auth.api.signInEmail({ body: { email: "ada@example.com", password: "wrong password" } }),
      ).rejects.toMatchObject({ code: "INVALID_EMAIL_OR_PASSWORD" });
    }
    expect((await wrongSignIn()).status).toBe(401);
  });
});

describe("default rule: 100 per 10 s", () => {
  it("allows 100 get-session calls and refuses the 101st", async () => {
    for (let i = 0; i < 100; i++) {
      const res = await sendRaw(t.auth, "GET", "/get-session", { remoteAddress: "192.0.2.9" });
      expect(res.status).toBe(200);
    }
    expectLimited(await sendRaw(t.auth, "GET", "/get-session", { remoteAddress: "192.0.2.9" }));
    // Another path has its own budget.
    expect((await sendRaw(t.auth, "GET", "/ok", { remoteAddress: "192.0.2.9" })).status).toBe(200);
  });

  it("applies a custom rule, and `false` turns limiting off for a path", async () => {
    const custom = await createTestAuth({
      rateLimit: { enabled: true, customRules: { "/ok": { window: 60, max: 1 }, "/sign-in/email": false } },
    });
    try {
      expect((await sendRaw(custom.auth, "GET", "/ok")).status).toBe(200);
      expectLimited(await sendRaw(custom.auth, "GET", "/ok"), 60);
      for (let i = 0; i < 5; i++) expect((await wrongSignIn(custom.auth)).status).toBe(401);
    } finally {
      await custom.close();
    }
  });
});

describe("storage", () => {
  it("stays bounded for a busy client: old log entries are dropped as new ones come", async () => {
    const busy = await createTestAuth({
      rateLimit: { enabled: true, customRules: { "/ok": { window: 1, max: 5 } } },
    });
    try {
      let admitted = 0;
      for (let i = 0; i < 60; i++) {
        if ((await sendRaw(busy.auth, "GET", "/ok")).status === 200) admitted++;
        busy.advance(0.1);
      }
      // 6 s at 10 requests/s against 5 per second: about 30 admitted, the rest refused.
      expect(admitted).toBeGreaterThanOrEqual(25);
      expect(admitted).toBeLessThanOrEqual(35);
      expect(await busy.db.collection("rateLimits").countDocuments()).toBeLessThanOrEqual(10);
    } finally {
      await busy.close();
    }
  });
});

describe("client address (L2, L3, ASVS 4.1.3)", () => {
  it("ignores X-Forwarded-For from a socket that is not a trusted proxy", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await wrongSignIn(t.auth, "192.0.2.1", { "x-forwarded-for": `1.1.1.${i}` })).status).toBe(401);
    }
    expectLimited(await wrongSignIn(t.auth, "192.0.2.1", { "x-forwarded-for": "1.1.1.99" }));
  });

  it("keys on the forwarded client when the socket is a trusted proxy", async () => {
    const viaProxy = (client: string) => wrongSignIn(t.auth, "10.0.0.1", { "x-forwarded-for": client });
    for (let i = 0; i < 3; i++) expect((await viaProxy("203.0.113.5")).status).toBe(401);
    expectLimited(await viaProxy("203.0.113.5"));
    // A spoofed left part does not buy a new bucket: the right-most untrusted hop is the client.
    expectLimited(await viaProxy("1.2.3.4, 203.0.113.5"));
    expect((await viaProxy("203.0.113.6")).status).toBe(401);
  });

  it("puts IPv4-mapped IPv6 and IPv4 in one bucket, and one IPv6 /64 in one bucket", async () => {
    // Each guess at another address (email), so the per-account throttle stays out of the way.
    let n = 0;
    const guess = (address: string) => wrongSignIn(t.auth, address, {}, `guess-${++n}@example.com`);
    await guess("::ffff:192.0.2.50");
    await guess("192.0.2.50");
    await guess("::FFFF:192.0.2.50");
    expectLimited(await guess("192.0.2.50"));
    await guess("2001:db8:1:2::1");
    await guess("2001:db8:1:2:ffff::2");
    await guess("2001:0db8:0001:0002:0:0:0:3");
    expectLimited(await guess("2001:db8:1:2::4"));
    expect((await guess("2001:db8:1:3::1")).status).toBe(401);
  });

  it("fails closed without a client address: one shared bucket", async () => {
    const noAddress = () =>
      t.auth.handler(
        new Request(`${TEST_ORIGIN}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": `1.1.1.${Math.random()}` },
          body: JSON.stringify({ email: "ada@example.com", password: "wrong password" }),
        }),
      );
    for (let i = 0; i < 3; i++) expect((await noAddress()).status).toBe(401);
    expect((await noAddress()).status).toBe(429);
  });

  /** A second instance on its own database with other proxy settings; closed by the test. */
  async function withProxies(trustedProxies: string[], logger?: { warn: (line: string) => void }) {
    const other = await createTestAuth(
      {
        rateLimit: { enabled: true },
        advanced: { trustedProxies },
        ...(logger ? { logger: { info: () => {}, error: () => {}, ...logger } } : {}),
      },
      { frozen: true },
    );
    cleanups.push(() => other.close());
    await signUp(new TestBrowser(other.auth), { email: "ada@example.com", password: PASSWORD });
    return other;
  }

  it("trusts a load balancer listed by CIDR range: each forwarded client has its own bucket", async () => {
    const other = await withProxies(["10.0.0.0/8", "2001:db8::/32"]);
    for (const client of ["1.1.1.1", "1.1.1.2", "1.1.1.3"]) {
      expect((await wrongSignIn(other.auth, "10.0.0.7", { "x-forwarded-for": client })).status).toBe(401);
    }
    expect((await wrongSignIn(other.auth, "10.200.0.1", { "x-forwarded-for": "2.2.2.2" })).status).toBe(401);
    for (let i = 0; i < 2; i++)
      await wrongSignIn(other.auth, "2001:db8::5", { "x-forwarded-for": "2.2.2.2" });
    expectLimited(await wrongSignIn(other.auth, "10.0.0.9", { "x-forwarded-for": "2.2.2.2" }));
    // Outside the ranges the header is not believed: the socket is the client.
    for (let i = 0; i < 3; i++)
      await wrongSignIn(other.auth, "11.0.0.1", { "x-forwarded-for": `3.3.3.${i}` });
    expectLimited(await wrongSignIn(other.auth, "11.0.0.1", { "x-forwarded-for": "3.3.3.99" }));
  });

  it('keys auth.handler calls without a socket address on the forwarded client with trustedProxies ["*"]', async () => {
    const other = await withProxies(["*"]);
    const noAddress = (forwarded: string, password = "wrong password") =>
      other.auth.handler(
        new Request(`${TEST_ORIGIN}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": forwarded },
          body: JSON.stringify({ email: "ada@example.com", password }),
        }),
      );
    for (let i = 0; i < 3; i++) expect((await noAddress("6.6.6.6")).status).toBe(401);
    expect((await noAddress("6.6.6.6")).status).toBe(429);
    // Another visitor still signs in; a spoofed left part does not escape the right-most hop's bucket.
    expect((await noAddress("1.2.3.4", PASSWORD)).status).toBe(200);
    expect((await noAddress("9.9.9.9, 6.6.6.6")).status).toBe(429);
  });

  it("warns once when requests arrive without a client address", async () => {
    const warnings: string[] = [];
    const other = await withProxies([], { warn: (line) => warnings.push(line) });
    for (let i = 0; i < 2; i++) {
      await other.auth.handler(new Request(`${TEST_ORIGIN}/api/auth/get-session`));
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("without a client address");
    expect(warnings[0]).toContain("remoteAddress");
  });

  it('warns about the missing header, not the setting, when trustedProxies ["*"] gets no forwarded header', async () => {
    const warnings: string[] = [];
    const other = await withProxies(["*"], { warn: (line) => warnings.push(line) });
    await other.auth.handler(new Request(`${TEST_ORIGIN}/api/auth/get-session`));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("without the advanced.ipAddressHeader header");
    expect(warnings[0]).not.toContain("remoteAddress");
  });

  it("refuses a trusted proxy that is not an address, a range or * at startup, naming the option", () => {
    for (const entry of ["10.0.0.0/33", "proxy.internal", "10.0.0.0/8/1"]) {
      expect(() =>
        createAuth({
          database: t.db,
          secret: TEST_SECRET,
          baseURL: TEST_ORIGIN,
          advanced: { trustedProxies: [entry] },
        }),
      ).toThrow(/advanced\.trustedProxies/);
    }
  });
});
