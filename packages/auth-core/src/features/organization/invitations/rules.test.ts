import { describe, expect, it } from "vitest";
import { isInvitationOpen } from "./rules.ts";

describe("invitation state", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  const later = new Date(now.getTime() + 1000);
  it.each([
    ["pending", later, true],
    ["pending", now, false],
    ["accepted", later, false],
    ["rejected", later, false],
    ["canceled", later, false],
  ] as const)("%s expiring %s → open %s", (status, expiresAt, open) => {
    expect(isInvitationOpen({ status, expiresAt }, now)).toBe(open);
  });
});
