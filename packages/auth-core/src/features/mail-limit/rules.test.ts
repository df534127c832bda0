import { describe, expect, it } from "vitest";
import { ObjectId } from "../../db/ids.ts";
import {
  type MailLimitConfig,
  mailboxOf,
  mailLimitRule,
  recipientKey,
  senderKey,
  slotIds,
  windowEnd,
  windowIndex,
} from "./rules.ts";

const CONFIG: MailLimitConfig = { enabled: true, window: 900, max: 3, recipientMax: 10, kinds: {} };
const SECRET = "secret-0123456789";

describe("mailLimitRule", () => {
  it.each([
    ["reset-password", CONFIG, { window: 900, max: 3, recipientMax: 10 }],
    ["two-factor-otp", CONFIG, { window: 900, max: 10, recipientMax: 10 }],
    [
      "invitation",
      { ...CONFIG, kinds: { invitation: { window: 60, max: 1 } } },
      { window: 60, max: 1, recipientMax: 10 },
    ],
    [
      "invitation",
      { ...CONFIG, kinds: { invitation: { recipientMax: 20 } } },
      { window: 900, max: 3, recipientMax: 20 },
    ],
    [
      "two-factor-otp",
      { ...CONFIG, kinds: { "two-factor-otp": { window: 60, max: 2 } } },
      { window: 60, max: 2, recipientMax: 10 },
    ],
    ["verify-email", { ...CONFIG, kinds: { "verify-email": false } }, null],
    ["reset-password", { ...CONFIG, enabled: false }, null],
  ] as const)("%s under %j is %j", (kind, config, rule) => {
    expect(mailLimitRule(config as MailLimitConfig, kind)).toEqual(rule);
  });
});

describe("mailboxOf: what counts as one mailbox", () => {
  it.each([
    ["box@example.com", "box@example.com"],
    [" Box@Example.com ", "box@example.com"],
    ["box+1@example.com", "box@example.com"],
    ["BOX+news+2@example.com", "box@example.com"],
    ["box+@example.com", "box@example.com"],
    // A local part that starts with "+" has no tag to drop; a "+" in the domain is not a tag.
    ["+box@example.com", "+box@example.com"],
    ["box@ex+ample.com", "box@ex+ample.com"],
  ])("%s → %s", (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });
});

describe("slots", () => {
  it("name the kind, the keyed mailbox, the window and the slot", () => {
    const key = recipientKey(SECRET, " Ada@Example.com ");
    expect(key).toBe(recipientKey(SECRET, "ada@example.com"));
    expect(key).toBe(recipientKey(SECRET, "ada+shop@example.com"));
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toBe(recipientKey("another-secret-0123", "ada@example.com"));
    expect(slotIds("invitation", key, 7, 3)).toEqual([
      `invitation|${key}|7|1`,
      `invitation|${key}|7|2`,
      `invitation|${key}|7|3`,
    ]);
  });

  it("of a sender name the keyed sender too; an IPv6 sender is its /64", () => {
    const key = recipientKey(SECRET, "ada@example.com");
    const org = new ObjectId();
    const from = senderKey(SECRET, { kind: "organization", id: org });
    expect(from).toMatch(/^[0-9a-f]{24}$/);
    expect(from).not.toBe(senderKey(SECRET, { kind: "user", id: org }));
    expect(slotIds("invitation", key, 7, 2, from)).toEqual([
      `invitation|${key}|7|${from}|1`,
      `invitation|${key}|7|${from}|2`,
    ]);
    const client = (address: string | null) => senderKey(SECRET, { kind: "client", address });
    expect(client("2001:db8::1")).toBe(client("2001:db8:0:0:ffff::2"));
    expect(client("2001:db8::1")).not.toBe(client("2001:db8:0:1::1"));
    expect(client("203.0.113.1")).not.toBe(client("203.0.113.2"));
    expect(client(null)).toBe(client(null));
  });

  it("fall in fixed windows that end where the next begins", () => {
    const at = new Date(Date.UTC(2026, 0, 1, 12, 14, 59));
    const index = windowIndex(at, 900);
    expect(windowIndex(new Date(at.getTime() + 1000), 900)).toBe(index + 1);
    expect(windowEnd(index, 900)).toEqual(new Date(Date.UTC(2026, 0, 1, 12, 15, 0)));
  });
});
