import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter, type RateLimitConfig, ruleForPath } from "./rate-limit.ts";

const config: RateLimitConfig = { window: 10, max: 100, customRules: {} };

describe("ruleForPath (docs/decisions/ rate limits)", () => {
  it.each([
    ["/sign-in/email", { window: 10, max: 3 }],
    ["/sign-up/email", { window: 10, max: 3 }],
    ["/change-password", { window: 10, max: 3 }],
    ["/change-email", { window: 10, max: 3 }],
    ["/delete-user", { window: 10, max: 3 }],
    ["/request-password-reset", { window: 60, max: 3 }],
    ["/forget-password", { window: 60, max: 3 }],
    ["/send-verification-email", { window: 60, max: 3 }],
    ["/two-factor/verify-totp", { window: 10, max: 3 }],
    ["/get-session", { window: 10, max: 100 }],
    ["/sign-inx", { window: 10, max: 100 }],
  ])("%s → %j", (path, rule) => expect(ruleForPath(path, config)).toEqual(rule));

  it("lets a custom rule replace a built-in one, or turn limiting off", () => {
    const custom = {
      ...config,
      customRules: { "/sign-in/email": { window: 5, max: 50 }, "/ok": false as const },
    };
    expect(ruleForPath("/sign-in/email", custom)).toEqual({ window: 5, max: 50 });
    expect(ruleForPath("/ok", custom)).toBeNull();
  });
});

describe("sliding-log limiter (memory)", () => {
  const rule = { window: 10, max: 3 };
  const at = (seconds: number) => new Date(1_700_000_000_000 + seconds * 1000);

  it("admits max per window and tells when the next slot frees", async () => {
    const limiter = createMemoryRateLimiter();
    for (const s of [0, 1, 2]) expect(await limiter.hit("k", rule, at(s))).toEqual({ allowed: true });
    expect(await limiter.hit("k", rule, at(3))).toEqual({ allowed: false, retryAfterSeconds: 7 });
    expect(await limiter.hit("k", rule, at(9.5))).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await limiter.hit("k", rule, at(10))).toEqual({ allowed: true });
    expect(await limiter.hit("k", rule, at(10.5))).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await limiter.hit("other", rule, at(10.5))).toEqual({ allowed: true });
  });

  it("does not let a burst across a fixed-window boundary pass twice the limit", async () => {
    const limiter = createMemoryRateLimiter();
    const results = [];
    for (const s of [9.7, 9.8, 9.9, 10.0, 10.1, 10.2])
      results.push((await limiter.hit("k", rule, at(s))).allowed);
    expect(results).toEqual([true, true, true, false, false, false]);
  });

  it("does not extend the window with refused hits", async () => {
    const limiter = createMemoryRateLimiter();
    for (const s of [0, 0, 0]) await limiter.hit("k", rule, at(s));
    for (const s of [2, 4, 6, 8]) expect((await limiter.hit("k", rule, at(s))).allowed).toBe(false);
    expect((await limiter.hit("k", rule, at(10))).allowed).toBe(true);
  });
});
