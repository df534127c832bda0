import { describe, expect, it } from "vitest";
import {
  buildRoleTable,
  canActOnMember,
  canGrantRoles,
  DEFAULT_ROLES,
  findGrantableRoles,
  findPermissionRefusal,
  hasPermission,
  ORGANIZATION_STATEMENTS,
  parseRoles,
  pickFreeSeat,
} from "./rules.ts";

/** the permission rules (docs/guide.md "Organizations"), written out by hand: the table the code must reproduce. */
const EXPECTED: Record<string, Record<string, Record<string, boolean>>> = {
  owner: {
    organization: { update: true, delete: true },
    member: { create: true, update: true, delete: true },
    invitation: { create: true, cancel: true },
    team: { create: true, update: true, delete: true },
  },
  admin: {
    organization: { update: true, delete: false },
    member: { create: true, update: true, delete: true },
    invitation: { create: true, cancel: true },
    team: { create: true, update: true, delete: true },
  },
  member: {
    organization: { update: false, delete: false },
    member: { create: false, update: false, delete: false },
    invitation: { create: false, cancel: false },
    team: { create: false, update: false, delete: false },
  },
};

const cells = Object.entries(EXPECTED).flatMap(([role, resources]) =>
  Object.entries(resources).flatMap(([resource, actions]) =>
    Object.entries(actions).map(([action, allowed]) => [role, resource, action, allowed] as const),
  ),
);

describe("the permission table (docs/guide.md, Organizations): every role × resource × action", () => {
  it("covers every statement of the feature for every default role", () => {
    expect(cells).toHaveLength(3 * 10);
    for (const [resource, actions] of Object.entries(ORGANIZATION_STATEMENTS))
      for (const action of actions) expect(EXPECTED.owner?.[resource]?.[action]).toBeDefined();
  });

  it.each(cells)("%s on %s:%s → %s", (role, resource, action, allowed) => {
    expect(hasPermission(role, { [resource]: [action] }, DEFAULT_ROLES)).toBe(allowed);
  });

  it.each(cells)("a non-member (no role) on %s %s:%s is refused", (_role, resource, action) => {
    expect(hasPermission("", { [resource]: [action] }, DEFAULT_ROLES)).toBe(false);
  });
});

describe("several roles, unknown roles, custom roles", () => {
  it("any role granting the action suffices (comma separated or a list)", () => {
    expect(hasPermission("member,admin", { team: ["create"] }, DEFAULT_ROLES)).toBe(true);
    expect(hasPermission(["member", " owner "], { organization: ["delete"] }, DEFAULT_ROLES)).toBe(true);
    expect(hasPermission("member,admin", { organization: ["delete"] }, DEFAULT_ROLES)).toBe(false);
  });

  it("every requested action must be granted", () => {
    expect(hasPermission("admin", { organization: ["update", "delete"] }, DEFAULT_ROLES)).toBe(false);
    expect(hasPermission("admin", { member: ["create"], team: ["delete"] }, DEFAULT_ROLES)).toBe(true);
  });

  it("an empty request, an unknown role, resource or action, and prototype names grant nothing", () => {
    expect(hasPermission("owner", {}, DEFAULT_ROLES)).toBe(false);
    expect(hasPermission("owner", { team: [] }, DEFAULT_ROLES)).toBe(false);
    expect(hasPermission("OWNER", { team: ["create"] }, DEFAULT_ROLES)).toBe(false);
    expect(hasPermission("owner", { billing: ["read"] }, DEFAULT_ROLES)).toBe(false);
    expect(hasPermission("owner", { team: ["read"] }, DEFAULT_ROLES)).toBe(false);
    expect(hasPermission("constructor", { team: ["create"] }, DEFAULT_ROLES)).toBe(false);
    expect(hasPermission("owner", { constructor: ["create"] }, DEFAULT_ROLES)).toBe(false);
    expect(hasPermission("__proto__", { team: ["create"] }, DEFAULT_ROLES)).toBe(false);
  });

  it("says why a request is refused (the error catalogue access control)", () => {
    expect(findPermissionRefusal("owner", { team: ["create"] }, DEFAULT_ROLES)).toBeNull();
    expect(findPermissionRefusal("member", { team: ["create"] }, DEFAULT_ROLES)).toBe(
      "RESOURCE_ACCESS_NOT_ALLOWED",
    );
    expect(findPermissionRefusal("owner", { billing: ["read"] }, DEFAULT_ROLES)).toBe(
      "RESOURCE_ACCESS_NOT_ALLOWED",
    );
    expect(findPermissionRefusal("admin", { organization: ["delete"] }, DEFAULT_ROLES)).toBe(
      "RESOURCE_ACCESS_UNAUTHORIZED",
    );
    expect(findPermissionRefusal("admin", {}, DEFAULT_ROLES)).toBe("NOT_AUTHORIZED");
    expect(findPermissionRefusal("admin", { team: [] }, DEFAULT_ROLES)).toBe("NOT_AUTHORIZED");
  });

  it("custom roles add statements; a custom role of a default name replaces it", () => {
    const table = buildRoleTable(
      { billing: { invoice: ["read"], team: ["update"] }, member: { team: ["create"] } },
      "owner",
    );
    expect(hasPermission("billing", { invoice: ["read"] }, table)).toBe(true);
    expect(hasPermission("billing", { team: ["delete"] }, table)).toBe(false);
    expect(hasPermission("member", { team: ["create"] }, table)).toBe(true);
    expect(hasPermission("owner", { organization: ["delete"] }, table)).toBe(true);
  });

  it("a creator role defined nowhere gets the owner's rights", () => {
    const table = buildRoleTable({}, "founder");
    expect(hasPermission("founder", { organization: ["delete"] }, table)).toBe(true);
  });

  it("parses comma separated roles", () => {
    expect(parseRoles(" admin , member,,admin")).toEqual(["admin", "member"]);
    expect(parseRoles(["admin,owner", "member"])).toEqual(["admin", "owner", "member"]);
  });
});

describe("granting roles: nobody grants a role they do not hold", () => {
  const table = buildRoleTable({ superuser: ORGANIZATION_STATEMENTS }, "owner");
  it.each([
    ["owner", ["owner"], true],
    ["owner", ["admin", "member"], true],
    ["admin", ["admin"], true],
    ["admin", ["member"], true],
    ["admin", ["owner"], false],
    ["admin", ["admin", "owner"], false],
    ["member", ["member"], true],
    ["member", ["admin"], false],
    ["member", ["owner"], false],
    // Every right, but not the creator role: still cannot mint owners (docs/security.md).
    ["superuser", ["owner"], false],
    ["superuser", ["admin"], true],
    ["owner", ["nope"], false],
  ] as const)("%s granting %j → %s", (caller, granted, allowed) => {
    expect(canGrantRoles(caller, granted, table, "owner")).toBe(allowed);
  });
});

describe("acting on a member: only a creator-role holder on a creator-role holder, nobody on one who can do more", () => {
  const table = buildRoleTable(
    { superuser: ORGANIZATION_STATEMENTS, remover: { member: ["delete"] } },
    "owner",
  );
  it.each([
    ["owner", "owner", true],
    ["owner", "admin", true],
    ["admin", "owner", false],
    ["admin", "admin", true],
    ["admin", "member", true],
    ["admin", "admin,owner", false],
    // Every right, but not the creator role: still cannot touch an owner (docs/security.md).
    ["superuser", "owner", false],
    ["superuser", "admin", true],
    // Review finding 12: member:delete alone does not reach an admin, who can do more.
    ["remover", "admin", false],
    ["remover", "member", true],
    ["remover", "remover", true],
  ] as const)("%s acting on %s → %s", (caller, target, allowed) => {
    expect(canActOnMember(caller, target, table, "owner")).toBe(allowed);
  });

  it("offers only the roles the caller may grant, in table order", () => {
    expect(findGrantableRoles("owner", DEFAULT_ROLES, "owner")).toEqual(["owner", "admin", "member"]);
    expect(findGrantableRoles("admin", DEFAULT_ROLES, "owner")).toEqual(["admin", "member"]);
    expect(findGrantableRoles("member", DEFAULT_ROLES, "owner")).toEqual(["member"]);
    expect(findGrantableRoles("superuser", table, "owner")).toEqual([
      "admin",
      "member",
      "superuser",
      "remover",
    ]);
  });
});

describe("seat choice", () => {
  it("picks a free seat below the limit, or null when all are taken", () => {
    expect(pickFreeSeat([0, 1, 3], 5, 0)).toBe(2);
    expect(pickFreeSeat([0, 1, 3], 5, 0.99)).toBe(4);
    expect(pickFreeSeat([0, 1, 2], 3, 0.5)).toBeNull();
    expect(pickFreeSeat([], 1, 0.99)).toBe(0);
  });
  it("always finds one without a limit", () => {
    expect(pickFreeSeat([0, 1, 2], Number.POSITIVE_INFINITY, 0)).toBe(3);
  });
});
