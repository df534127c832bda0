import { describe, expect, it } from "vitest";
import {
  type MailLimitConfig,
  mailLimitRule,
  recipientKey,
  slotIds,
  windowEnd,
  windowIndex,
} from "./rules.ts";

const CONFIG: MailLimitConfig = { enabled: true, window: 900, max: 3, kinds: {} };

describe("mailLimitRule", () => {
  it.each([
    ["reset-password", CONFIG, { window: 900, max: 3 }],
    ["two-factor-otp", CONFIG, { window: 900, max: 10 }],
    ["invitation", { ...CONFIG, kinds: { invitation: { window: 60, max: 1 } } }, { window: 60, max: 1 }],
    [
      "two-factor-otp",
      { ...CONFIG, kinds: { "two-factor-otp": { window: 60, max: 2 } } },
      { window: 60, max: 2 },
    ],
    ["verify-email", { ...CONFIG, kinds: { "verify-email": false } }, null],
    ["reset-password", { ...CONFIG, enabled: false }, null],
  ] as const)("%s under %j is %j", (kind, config, rule) => {
    expect(mailLimitRule(config as MailLimitConfig, kind)).toEqual(rule);
  });
});

describe("slots", () => {
  it("name the kind, the keyed address, the window and the slot", () => {
    const key = recipientKey("secret-0123456789", " Ada@Example.com ");
    expect(key).toBe(recipientKey("secret-0123456789", "ada@example.com"));
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toBe(recipientKey("another-secret-0123", "ada@example.com"));
    expect(slotIds("invitation", key, 7, 3)).toEqual([
      `invitation|${key}|7|1`,
      `invitation|${key}|7|2`,
      `invitation|${key}|7|3`,
    ]);
  });

  it("fall in fixed windows that end where the next begins", () => {
    const at = new Date(Date.UTC(2026, 0, 1, 12, 14, 59));
    const index = windowIndex(at, 900);
    expect(windowIndex(new Date(at.getTime() + 1000), 900)).toBe(index + 1);
    expect(windowEnd(index, 900)).toEqual(new Date(Date.UTC(2026, 0, 1, 12, 15, 0)));
  });
});
