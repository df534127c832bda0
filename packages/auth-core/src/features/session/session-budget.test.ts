import type { Auth, AuthOptions } from "@tessera/auth-core";
import type { Db } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { DAY } from "#test/session-cookies.ts";
import { createTestAuth } from "#test/test-auth.ts";

/**
 * Database commands per request (docs/architecture.md "Count database commands per endpoint and keep the count
 * in a test"). Rate limiting is ON with database storage, the default, because its counter is part
 * of what a request costs. Each counted command is named `command:collection`.
 */
interface Meter {
  auth: Auth;
  db: Db;
  advance(seconds: number): void;
  /** The commands the driver sent while `run` was in flight. */
  count(run: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

/** Cookie cache on; rate limiting on (database storage unless overridden), as by default. */
async function createMeter(overrides: Omit<Partial<AuthOptions>, "database"> = {}): Promise<Meter> {
  const t = await createTestAuth({
    session: { cookieCache: { enabled: true } },
    ...overrides,
    rateLimit: { enabled: true, ...overrides.rateLimit },
  });
  return { auth: t.auth, db: t.db, advance: t.advance, count: t.commands, close: t.close };
}

/** The rate limiter's own commands (its implementation is not this folder's; see http/rate-limit.ts). */
const isRateLimitCommand = (command: string) => command.endsWith(":rateLimits");
const SESSION_READ = ["find:sessions", "find:users"];

/**
 * Splits a request's commands into the endpoint's own and the rate limiter's. The endpoint's are
 * asserted exactly; the limiter's cost is bounded and reported, so the total is visible.
 */
function split(commands: string[]): { own: string[]; rateLimit: string[] } {
  return {
    own: commands.filter((command) => !isRateLimitCommand(command)),
    rateLimit: commands.filter(isRateLimitCommand),
  };
}

/** What the database rate limiter costs one admitted request today (a read and an insert). */
const RATE_LIMIT_BUDGET = 2;

describe("database commands per request (rate limiting on, database storage)", () => {
  let m: Meter;
  let browser: TestBrowser;
  const measured: Record<string, string> = {};
  async function measure(label: string, run: () => Promise<unknown>) {
    const commands = await m.count(run);
    const { own, rateLimit } = split(commands);
    measured[label] = `${commands.length} (${own.length} + ${rateLimit.length} rate limit)`;
    expect(rateLimit.length).toBeGreaterThan(0);
    expect(rateLimit.length).toBeLessThanOrEqual(RATE_LIMIT_BUDGET);
    return own;
  }
  beforeAll(async () => {
    m = await createMeter();
    browser = new TestBrowser(m.auth);
  });
  afterAll(async () => {
    console.info(`[session-budget] commands per request: ${JSON.stringify(measured)}`);
    await m.close();
  });

  // The steps share one user and browser, in order: sign-up, cached read, database read, refresh…
  it("sign-up/email: claim, account, user and session inserts", async () => {
    const own = await measure("sign-up/email", () => signUp(browser));
    // The address's claim first (docs/scale.md), the user's timeline entry, then the account, then
    // the user row: a crash before the user row leaves nothing reachable, and the next sign-up
    // removes it (issue 16 §3); an entry without its user is skipped by its readers.
    expect(own).toEqual([
      // Require SSO (features/sso-domains): the address's domain on the unique verifiedKey index.
      "find:organizationDomains",
      "insert:emailClaims",
      "update:userTimeline",
      "insert:accounts",
      "insert:users",
      "update:listingVersions",
      "insert:sessions",
    ]);
  });

  it("get-session from the cookie cache: no session or user read", async () => {
    expect(browser.cookies.has(CACHE_COOKIE)).toBe(true);
    let body: unknown;
    const own = await measure("get-session (cookie cache)", async () => {
      body = (await browser.get("/get-session")).body;
    });
    expect(body).not.toBeNull();
    expect(own).toEqual([]);
  });

  it("get-session from the database: 2 reads (session, user)", async () => {
    const own = await measure("get-session (database)", () =>
      browser.get("/get-session?disableCookieCache=true"),
    );
    expect(own).toEqual(SESSION_READ);
  });

  it("get-session with a sliding refresh: 2 reads and 1 update", async () => {
    m.advance(DAY + 60);
    const own = await measure("get-session (refresh)", () => browser.get("/get-session"));
    expect(own).toEqual([...SESSION_READ, "update:sessions"]);
  });

  it("sign-in/email: user, credential account, the throttle's three, session insert", async () => {
    const own = await measure("sign-in/email", () =>
      new TestBrowser(m.auth).post("/sign-in/email", {
        email: "ada@example.com",
        password: "correct horse battery",
      }),
    );
    expect(own).toEqual([
      // The user by address, on the unique email index (docs/scale.md).
      "find:users",
      "find:accounts",
      // The per-account sign-in throttle: lane read, the attempt's slot, the success's clear.
      "find:verifications",
      "insert:verifications",
      "delete:verifications",
      // Require SSO (features/sso-domains): the address's domain on the unique verifiedKey index.
      "find:organizationDomains",
      "insert:sessions",
    ]);
  });

  it("list-sessions and revoke-other-sessions read the session from the database (sensitive)", async () => {
    // A new sign-in: list-sessions needs a fresh session, and the earlier steps skipped a day.
    const fresh = new TestBrowser(m.auth);
    await fresh.post("/sign-in/email", { email: "ada@example.com", password: "correct horse battery" });
    const listed = await measure("list-sessions", () => fresh.get("/list-sessions"));
    expect(listed).toEqual([...SESSION_READ, "find:sessions"]);
    const revoked = await measure("revoke-other-sessions", () => fresh.post("/revoke-other-sessions"));
    // signOutEverywhere: other sessions and impersonations, then the keys a session minted (none).
    // The other sessions read, their session.revoked journaled (features/events), then deleted.
    expect(revoked).toEqual([
      ...SESSION_READ,
      "find:sessions",
      "insert:pendingDeletions",
      "delete:sessions",
      "find:apiKeys",
    ]);
  });
});

describe("with the rate-limit counter in memory", () => {
  it("a cookie-cached get-session sends no database command at all", async () => {
    const m = await createMeter({ rateLimit: { storage: "memory" } });
    try {
      const browser = new TestBrowser(m.auth);
      await signUp(browser);
      let body: unknown;
      const commands = await m.count(async () => {
        body = (await browser.get("/get-session")).body;
      });
      expect(body).not.toBeNull();
      expect(commands).toEqual([]);
    } finally {
      await m.close();
    }
  });
});
