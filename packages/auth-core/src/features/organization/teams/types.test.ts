import { describe, expect, it } from "vitest";
import { teamMemberSchema, teamSchema } from "../../../contracts/organization-models.ts";
import type { TeamDoc, TeamMemberDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import { toTeam, toTeamMember } from "./types.ts";

const team: TeamDoc = {
  _id: new ObjectId(),
  name: "Platform",
  organizationId: new ObjectId(),
  createdAt: new Date("2026-03-04T05:06:07.089Z"),
  updatedAt: null,
};

describe("a team's API value", () => {
  it.each([
    ["never renamed", team],
    ["renamed", { ...team, updatedAt: new Date("2026-04-05T06:07:08.091Z") }],
  ])("is its stored fields, ids as hex, in the answer's key order: %s", (_name, doc) => {
    const value = toTeam(doc);
    expect(JSON.stringify(value)).toBe(
      JSON.stringify({
        id: doc._id.toHexString(),
        name: doc.name,
        organizationId: doc.organizationId.toHexString(),
        createdAt: doc.createdAt,
        updatedAt: doc.updatedAt,
      }),
    );
    expect(teamSchema.safeParse(value).success).toBe(true);
  });
});

describe("a team member's API value", () => {
  it("is its stored fields without the organization and seat, ids as hex, in the answer's key order; a row stored without a role reads as team-member", () => {
    const doc: TeamMemberDoc = {
      _id: new ObjectId(),
      teamId: team._id,
      organizationId: team.organizationId,
      userId: new ObjectId(),
      createdAt: new Date("2026-03-04T05:06:07.089Z"),
      seat: 2,
    };
    const value = toTeamMember(doc);
    expect(JSON.stringify(value)).toBe(
      JSON.stringify({
        id: doc._id.toHexString(),
        teamId: doc.teamId.toHexString(),
        userId: doc.userId.toHexString(),
        createdAt: doc.createdAt,
        role: "team-member",
      }),
    );
    expect(teamMemberSchema.safeParse(value).success).toBe(true);
    expect(toTeamMember({ ...doc, role: "team-admin" }).role).toBe("team-admin");
  });
});
