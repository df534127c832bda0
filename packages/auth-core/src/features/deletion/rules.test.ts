import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import type { MemberDoc } from "../../db/documents.ts";
import {
  appendErrorParam,
  chooseDeletePath,
  deleteAccountIdentifier,
  planOrganizationRelease,
  roleWithout,
  USER_TOKEN_IDENTIFIER,
} from "./rules.ts";

describe("chooseDeletePath", () => {
  it.each([
    // hasToken, hasPassword, sendsVerificationEmail → path
    [true, false, false, "consume-token"],
    [true, true, true, "consume-token"],
    [false, false, true, "send-email"],
    [false, true, true, "send-email"],
    [false, true, false, "delete"],
    [false, false, false, "require-fresh-session"],
  ] as const)(
    "token %s, password %s, email flow %s → %s",
    (hasToken, hasPassword, sendsVerificationEmail, path) => {
      expect(chooseDeletePath({ hasToken, hasPassword, sendsVerificationEmail })).toBe(path);
    },
  );
});

describe("appendErrorParam", () => {
  it.each([
    ["/", "/?error=INVALID_TOKEN"],
    ["/goodbye?from=mail#top", "/goodbye?from=mail&error=INVALID_TOKEN#top"],
    ["/goodbye?error=OLD", "/goodbye?error=INVALID_TOKEN"],
    ["https://app.example.com/bye", "https://app.example.com/bye?error=INVALID_TOKEN"],
  ])("%s → %s", (callbackURL, expected) => {
    expect(appendErrorParam(callbackURL, "INVALID_TOKEN")).toBe(expected);
  });
});

describe("delete-account identifiers", () => {
  it("uses the form and matches only user-bound token kinds", () => {
    // The token's SHA-256 (base64url) in place of the token (docs/security.md).
    expect(deleteAccountIdentifier("abc")).toBe("delete-account-ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    expect(USER_TOKEN_IDENTIFIER.test("delete-account-abc")).toBe(true);
    expect(USER_TOKEN_IDENTIFIER.test("reset-password:abc")).toBe(true);
    expect(USER_TOKEN_IDENTIFIER.test("oauth-state:abc")).toBe(false);
    expect(USER_TOKEN_IDENTIFIER.test("x-delete-account-abc")).toBe(false);
  });
});

describe("planOrganizationRelease (docs/security.md)", () => {
  const userId = new ObjectId();
  const member = (role: string): MemberDoc => ({
    _id: new ObjectId(),
    organizationId: new ObjectId(),
    userId,
    role,
    createdAt: new Date(0),
    teamId: null,
    seat: 0,
  });

  it("sorts each membership: alone → delete, co-owned → demote and leave, sole owner → blocked, else leave", () => {
    const alone = member("owner");
    const coOwned = member("admin, owner");
    const soleOwner = member("owner");
    const plain = member("admin");
    const lookalike = member("co-owner"); // not the creator role, though it contains its name
    const plan = planOrganizationRelease([alone, coOwned, soleOwner, plain, lookalike], "owner", {
      withMembers: [coOwned.organizationId, soleOwner.organizationId],
      withOwners: [coOwned.organizationId],
    });
    expect(plan).toEqual({
      deleteOrganizations: [alone.organizationId],
      demote: [coOwned],
      blockedBy: [soleOwner.organizationId],
      leave: [coOwned.organizationId, plain.organizationId, lookalike.organizationId],
    });
  });

  it("uses the configured creator role", () => {
    const boss = member("boss");
    const owner = member("owner");
    const plan = planOrganizationRelease([boss, owner], "boss", {
      withMembers: [boss.organizationId, owner.organizationId],
      withOwners: [],
    });
    expect(plan.blockedBy).toEqual([boss.organizationId]);
    expect(plan.leave).toEqual([owner.organizationId]);
  });

  it("plans nothing for a user without memberships", () => {
    expect(planOrganizationRelease([], "owner", { withMembers: [], withOwners: [] })).toEqual({
      deleteOrganizations: [],
      demote: [],
      blockedBy: [],
      leave: [],
    });
  });
});

describe("roleWithout", () => {
  it.each([
    ["owner", "member"],
    ["admin,owner", "admin"],
    [" owner , admin ,billing", "admin,billing"],
    ["admin", "admin"],
  ])("%j without owner is %j", (role, expected) => {
    expect(roleWithout(role, "owner")).toBe(expected);
  });
});
