import { describe, expect, it } from "vitest";
import { buildRoleTable } from "../members/rules.ts";
import {
  buildTeamRoleTable,
  canActOnTeam,
  canActOnTeamMember,
  canGrantTeamRole,
  findTeamPermissionRefusal,
  TEAM_ACTIONS,
  type TeamAction,
  type TeamActor,
  teamRoleOf,
} from "./rules.ts";

const CUSTOM = {
  reviewer: { project: ["review"] },
  lead: { team: ["update"], project: ["review", "deploy"] },
};
const tables = {
  organization: buildRoleTable(CUSTOM, "owner"),
  team: buildTeamRoleTable(CUSTOM, ["reviewer", "lead"]),
};
const OWN = "team-a";
const OTHER = "team-b";

/**
 * docs/security.md "Team roles", written out by hand: organization role × role in the actor's own
 * team × action × whether the action is on that team or another one. Letters: r rename, a add-member,
 * x remove-member, s set-member-role, d delete; what is listed is allowed, the rest refused.
 */
const EXPECTED: Record<string, Record<string, { own: string; other: string }>> = {
  owner: {
    "team-admin": { own: "raxsd", other: "raxsd" },
    "team-member": { own: "raxsd", other: "raxsd" },
    none: { own: "raxsd", other: "raxsd" },
  },
  admin: {
    "team-admin": { own: "raxsd", other: "raxsd" },
    "team-member": { own: "raxsd", other: "raxsd" },
    none: { own: "raxsd", other: "raxsd" },
  },
  member: {
    "team-admin": { own: "raxs", other: "" },
    "team-member": { own: "", other: "" },
    none: { own: "", other: "" },
  },
};
const LETTER: Record<TeamAction, string> = {
  rename: "r",
  "add-member": "a",
  "remove-member": "x",
  "set-member-role": "s",
  delete: "d",
};

const cells = Object.entries(EXPECTED).flatMap(([organizationRole, byTeamRole]) =>
  Object.entries(byTeamRole).flatMap(([teamRole, scopes]) =>
    (["own", "other"] as const).flatMap((scope) =>
      TEAM_ACTIONS.map(
        (action) =>
          [organizationRole, teamRole, action, scope, scopes[scope].includes(LETTER[action])] as const,
      ),
    ),
  ),
);

function actor(organizationRole: string, teamRole: string): TeamActor {
  return { organizationRoles: organizationRole, teamRoles: teamRole === "none" ? {} : { [OWN]: teamRole } };
}

describe("team actions: every organization role × team role × action × scope", () => {
  it("covers 3 × 3 × 5 × 2 cells", () => expect(cells).toHaveLength(90));

  it.each(cells)(
    "%s, %s of their team: %s on the %s team → %s",
    (orgRole, teamRole, action, scope, allowed) => {
      expect(canActOnTeam(actor(orgRole, teamRole), action, scope === "own" ? OWN : OTHER, tables)).toBe(
        allowed,
      );
    },
  );
});

describe("team roles", () => {
  it("a row stored before team roles reads as team-member", () => {
    expect(teamRoleOf({})).toBe("team-member");
    expect(teamRoleOf({ role: "team-admin" })).toBe("team-admin");
  });

  it("only the roles named in teams.roles become team roles, beside the built-in two", () => {
    expect(Object.keys(buildTeamRoleTable(CUSTOM, ["reviewer", "unknown"]))).toEqual([
      "team-admin",
      "team-member",
      "reviewer",
    ]);
  });

  it("a team-scoped custom role with team:update manages its own team only", () => {
    const lead = actor("member", "lead");
    expect(canActOnTeam(lead, "add-member", OWN, tables)).toBe(true);
    expect(canActOnTeam(lead, "add-member", OTHER, tables)).toBe(false);
    expect(canActOnTeam(lead, "delete", OWN, tables)).toBe(false);
  });

  it("a team admin cannot remove or re-role a member whose organization role manages teams", () => {
    const teamAdmin = actor("member", "team-admin");
    const plain = { organizationRoles: "member", teamRole: "team-admin" };
    expect(canActOnTeamMember(teamAdmin, "remove-member", OWN, plain, tables)).toBe(true);
    expect(
      canActOnTeamMember(teamAdmin, "remove-member", OWN, { ...plain, organizationRoles: "admin" }, tables),
    ).toBe(false);
    expect(
      canActOnTeamMember(teamAdmin, "set-member-role", OWN, { ...plain, organizationRoles: "owner" }, tables),
    ).toBe(false);
    expect(canActOnTeamMember(teamAdmin, "remove-member", OTHER, plain, tables)).toBe(false);
    const owner = { organizationRoles: "owner", teamRole: null };
    expect(canActOnTeamMember(actor("admin", "none"), "remove-member", OTHER, owner, tables)).toBe(true);
  });

  it("a team admin cannot remove or re-role a member whose team role grants more than theirs", () => {
    const lead = { organizationRoles: "member", teamRole: "lead" };
    expect(canActOnTeamMember(actor("member", "team-admin"), "remove-member", OWN, lead, tables)).toBe(false);
    expect(canActOnTeamMember(actor("member", "lead"), "set-member-role", OWN, lead, tables)).toBe(true);
  });

  it("a team admin gives team-admin and team-member, never a role with rights they lack", () => {
    const teamAdmin = actor("member", "team-admin");
    expect(canGrantTeamRole(teamAdmin, "team-admin", OWN, tables)).toBe(true);
    expect(canGrantTeamRole(teamAdmin, "team-member", OWN, tables)).toBe(true);
    expect(canGrantTeamRole(teamAdmin, "lead", OWN, tables)).toBe(false);
    expect(canGrantTeamRole(teamAdmin, "team-admin", OTHER, tables)).toBe(false);
    expect(canGrantTeamRole(actor("admin", "none"), "lead", OTHER, tables)).toBe(true);
    expect(canGrantTeamRole(actor("admin", "none"), "admin", OWN, tables)).toBe(false);
  });
});

describe("permissions with a team as context", () => {
  it("the team role adds its rights in that team; the organization role still wins where it grants more", () => {
    expect(findTeamPermissionRefusal("member", "reviewer", { project: ["review"] }, tables)).toBeNull();
    expect(findTeamPermissionRefusal("member", null, { project: ["review"] }, tables)).toBe(
      "RESOURCE_ACCESS_NOT_ALLOWED",
    );
    expect(findTeamPermissionRefusal("member", "reviewer", { project: ["deploy"] }, tables)).toBe(
      "RESOURCE_ACCESS_UNAUTHORIZED",
    );
    expect(findTeamPermissionRefusal("admin", "team-member", { member: ["delete"] }, tables)).toBeNull();
    expect(findTeamPermissionRefusal("member", "team-admin", { team: ["update"] }, tables)).toBeNull();
    expect(findTeamPermissionRefusal("member", "team-admin", { member: ["delete"] }, tables)).toBe(
      "RESOURCE_ACCESS_NOT_ALLOWED",
    );
    expect(
      findTeamPermissionRefusal("reviewer", "lead", { project: ["review", "deploy"] }, tables),
    ).toBeNull();
  });
});
