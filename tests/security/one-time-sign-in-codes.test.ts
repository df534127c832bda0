import { afterEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, TestBrowser } from "#test/browser.ts";
import type { TestAuth } from "#test/test-auth.ts";
import {
  CHALLENGE_COOKIE,
  challengedBrowser,
  createEnrolled,
  EMAIL,
  ERR,
  sessionsOf,
} from "#test/two-factor.ts";
import { expectCatalogueError, sendRaw, snapshotDatabase } from "./helpers.ts";

/** docs/security.mds asserted here are named in a comment beside each test; the map of where
 * every row of the set is asserted is at the top of one-time-tokens.test.ts. */

describe("one-time sign-in codes", () => {
  let t: TestAuth | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  // matrix E24
  it("magic links and email codes are off unless the app turns them on: well-formed requests to their routes are 404 NOT_FOUND and write nothing", async () => {
    const enrolled = await createEnrolled();
    t = enrolled.t;
    const before = await snapshotDatabase(t.db);
    for (const [method, path, body] of [
      ["POST", "/sign-in/magic-link", { email: EMAIL }],
      ["GET", "/magic-link/verify?token=abc", null],
      ["POST", "/magic-link/verify", { token: "abc" }],
      ["GET", "/magic-link/confirmation?token=abc", null],
      ["POST", "/email-otp/send-verification-otp", { email: EMAIL, type: "sign-in" }],
      ["POST", "/sign-in/email-otp", { email: EMAIL, otp: "123456" }],
      ["POST", "/email-otp/verify-email", { email: EMAIL, otp: "123456" }],
      [
        "POST",
        "/email-otp/reset-password",
        { email: EMAIL, otp: "123456", password: "a new long passphrase" },
      ],
    ] as const) {
      const res = await sendRaw(t.auth, method, path, {
        headers: { "content-type": "application/json", origin: "http://localhost:3000" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 404`);
      expectCatalogueError(res, 404, "NOT_FOUND", "Not found");
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
  });

  // matrix E24
  it("(nearest real: the two-factor email OTP) a mailed code replayed with its challenge cookie after it signed in is refused; no second session", async () => {
    const enrolled = await createEnrolled();
    t = enrolled.t;
    const browser = await challengedBrowser(t);
    const challenge = browser.cookies.get(CHALLENGE_COOKIE)!;
    await browser.post("/two-factor/send-otp", {});
    const code = /\b(\d{6})\b/.exec(t.outbox.latestTo(EMAIL)?.text ?? "")?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const first = await browser.post("/two-factor/verify-otp", { code });
    expect(first.status).toBe(200);
    const sessions = await sessionsOf(t, enrolled.userId);
    const replay = new TestBrowser(t.auth);
    replay.cookies.set(CHALLENGE_COOKIE, challenge);
    const again = await replay.post("/two-factor/verify-otp", { code });
    expect({ status: again.status, body: again.body }).toEqual({ status: 401, body: ERR.INVALID_COOKIE });
    expect(replay.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await sessionsOf(t, enrolled.userId)).toBe(sessions);
  });
});
