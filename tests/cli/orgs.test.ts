import { describe, expect, it } from "vitest";
import { auditEvents } from "#test/admin.ts";
import { createOrganization, memberRoles, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import {
  orgsAddMemberAction,
  orgsDeleteAction,
  orgsListAction,
  orgsRemoveMemberAction,
  orgsSetRoleAction,
  orgsShowAction,
} from "../../packages/cli/src/commands/orgs.ts";
import { EXIT } from "../../packages/cli/src/errors.ts";
import { exitOf, testRun } from "./run-context.ts";

/** `tessera orgs` against the test database: the organization rules hold for the operator too. */
const t = useTestAuth();
const run = () => testRun(t.db.databaseName);

describe("tessera orgs", () => {
  it("list, show, add-member, set-role, remove-member; the only owner is neither removed nor demoted", async () => {
    const owner = await signIn(t, "org-owner");
    const other = await signIn(t, "org-other");
    const id = await createOrganization(owner, "acme", "Acme");
    const listed = await orgsListAction(run(), { search: "acm" });
    expect(listed.organizations).toEqual([
      expect.objectContaining({ id, slug: "acme", name: "Acme", members: 1 }),
    ]);

    await orgsAddMemberAction(run(), "acme", other.email, { role: "admin" });
    expect(await memberRoles(t, id)).toEqual({ [owner.userId]: "owner", [other.userId]: "admin" });
    const shown = await orgsShowAction(run(), id);
    expect(shown.members.map((member) => [member.email, member.role])).toEqual([
      [owner.email, "owner"],
      [other.email, "admin"],
    ]);

    expect(await exitOf(orgsRemoveMemberAction(run(), "acme", owner.email, { yes: true }))).toEqual([
      EXIT.refused,
      "CANNOT_LEAVE_AS_ONLY_OWNER",
    ]);
    expect(await exitOf(orgsSetRoleAction(run(), "acme", owner.email, "member"))).toEqual([
      EXIT.refused,
      "CANNOT_LEAVE_AS_ONLY_OWNER",
    ]);
    expect(await exitOf(orgsSetRoleAction(run(), "acme", other.email, "emperor"))).toEqual([
      EXIT.notFound,
      "MEMBER_ROLE_NOT_FOUND",
    ]);
    await orgsSetRoleAction(run(), "acme", other.email, "owner");
    await orgsSetRoleAction(run(), "acme", owner.email, "member");
    await orgsRemoveMemberAction(run(), "acme", owner.email, { yes: true });
    expect(await memberRoles(t, id)).toEqual({ [other.userId]: "owner" });

    const actions = (await auditEvents(t, { actor: "cli:tester" })).map((event) => event.action);
    expect(actions).toEqual([
      "organization.add-member",
      "organization.set-member-role",
      "organization.set-member-role",
      "organization.remove-member",
    ]);
  });

  it("delete takes members and invitations with it; an unknown organization is exit 3", async () => {
    const owner = await signIn(t, "doomed-owner");
    const id = await createOrganization(owner, "doomed");
    expect(await exitOf(orgsDeleteAction(run(), "doomed", {}))).toEqual([EXIT.usage, "USAGE"]);
    expect(await orgsDeleteAction(run(), "doomed", { yes: true })).toEqual({
      organizationId: id,
      deleted: true,
    });
    expect(await t.db.collection("members").countDocuments({})).toBeGreaterThan(0);
    expect(await memberRoles(t, id)).toEqual({});
    expect(await exitOf(orgsShowAction(run(), "doomed"))).toEqual([EXIT.notFound, "ORGANIZATION_NOT_FOUND"]);
  });
});
