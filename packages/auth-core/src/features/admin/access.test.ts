import { describe, expect, it } from "vitest";
import { ADMIN_STATEMENTS, findInvalidGrant } from "../../config/admin-roles.ts";
import { DEFAULT_ADMIN_ROLES, parseRoleList, type RoleSet, roleGrants, rolesGrant } from "./access.ts";

const custom: RoleSet = {
  ...DEFAULT_ADMIN_ROLES,
  support: { user: ["list", "get"], session: ["list"] },
  superadmin: { user: [...ADMIN_STATEMENTS.user], session: [...ADMIN_STATEMENTS.session] },
};

describe("rolesGrant: any one role granting the whole request suffices", () => {
  it.each([
    // roles, request, granted
    [["admin"], { user: ["list"] }, true],
    [["admin"], { user: ["ban", "set-role"], session: ["revoke"] }, true],
    [["admin"], { user: ["impersonate-admins"] }, false],
    [["admin"], { audit: ["list"] }, true],
    [["user"], { user: ["list"] }, false],
    [["user"], { session: ["list"] }, false],
    [["user"], {}, true],
    [["support"], { user: ["list"] }, true],
    [["support"], { user: ["list", "ban"] }, false],
    [["support", "admin"], { user: ["list", "ban"] }, true],
    [["support"], { user: ["list"], session: ["revoke"] }, false],
    [["superadmin"], { user: ["impersonate-admins"] }, true],
    [["unknown"], { user: ["list"] }, false],
    [["unknown"], {}, false],
    [[], { user: ["list"] }, false],
    [["admin"], { organization: ["delete"] }, false],
    [["admin"], { user: ["toString"] }, false],
    [["__proto__"], { user: ["list"] }, false],
    [["constructor"], {}, false],
  ] as const)("%j asking %j → %s", (roles, request, granted) => {
    expect(rolesGrant(custom, roles, request)).toBe(granted);
  });

  it("a role grants nothing through inherited properties", () => {
    expect(roleGrants({}, { constructor: ["name"] })).toBe(false);
    expect(roleGrants({}, { hasOwnProperty: ["call"] })).toBe(false);
  });
});

describe("parseRoleList", () => {
  it.each([
    [undefined, ["user"]],
    [null, ["user"]],
    ["", ["user"]],
    [" , ", ["user"]],
    ["admin", ["admin"]],
    ["admin,support", ["admin", "support"]],
    [" admin , support ,", ["admin", "support"]],
  ] as const)("%j → %j", (stored, expected) => {
    expect(parseRoleList(stored, "user")).toEqual(expected);
  });
});

describe("findInvalidGrant: custom roles may only grant admin statements (checked at startup)", () => {
  it.each([
    [DEFAULT_ADMIN_ROLES, null],
    [custom, null],
    [{ x: { user: ["fly"] } }, 'role "x" grants unknown action "user:fly"'],
    [{ x: { planet: ["list"] } }, 'role "x" grants unknown resource "planet"'],
    [{ x: { toString: ["list"] } }, 'role "x" grants unknown resource "toString"'],
  ] as const)("%j → %s", (roles, problem) => {
    expect(findInvalidGrant(roles, ADMIN_STATEMENTS)).toBe(problem);
  });
});
