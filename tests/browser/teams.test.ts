import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import {
  APP_DIR,
  DEMO,
  expectAccessible,
  expectPath,
  expectText,
  screenshot,
  useTestApp,
} from "./app-harness.ts";
import { expectHydrated, signIn } from "./page-watch.ts";

/**
 * Team pages with team roles (issue 32 §2): Grace, Acme's owner, makes Linus (a plain member) team
 * admin of Platform and adds Barbara as a team member; Linus then manages Platform's members and
 * their team roles, and nothing of the Research team or the organization; Barbara, a team member,
 * sees roles and no button, and a role change she posts by hand is refused in German.
 */
const en = JSON.parse(readFileSync(join(APP_DIR, "app/locales/en.json"), "utf8"));
const de = JSON.parse(readFileSync(join(APP_DIR, "app/locales/de.json"), "utf8"));
const teams = en.organizations.teams;
const app = useTestApp();

const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((out, [key, value]) => out.replace(`{{${key}}}`, value), text);

function team(page: Page, name: string) {
  return page.locator(`fieldset[data-team="${name}"]`);
}

async function teamRoleOf(teamName: string, email: string): Promise<string | null> {
  const acme = await app.db.collection("organizations").findOne({ slug: "acme" });
  const row = await app.db.collection("teams").findOne({ organizationId: acme!._id, name: teamName });
  const user = await app.db.collection("users").findOne({ email });
  const member = await app.db.collection("teamMembers").findOne({ teamId: row!._id, userId: user!._id });
  return member ? (member.role ?? "team-member") : null;
}

/** Barbara (Globex's owner) joins Acme as a plain member through an invitation Grace sends. */
async function barbaraJoinsAcme(owner: Page) {
  await owner.goto("/organizations/acme/invitations");
  await owner.getByLabel("Email", { exact: true }).fill(DEMO.barbara);
  await owner.getByRole("button", { name: "Send invitation" }).click();
  await expectText(owner.getByRole("status"), "Invitation sent.");
  const invitation = await app.db.collection("invitations").findOne({ email: DEMO.barbara });
  const barbara = await app.newPage();
  await signIn(barbara, DEMO.barbara);
  await barbara.goto(`/accept-invitation/${invitation!._id.toHexString()}`);
  await barbara.getByRole("button", { name: "Accept" }).click();
  await expectPath(barbara, "/organizations/acme/members");
}

describe("team pages with team roles", () => {
  test("the owner names a team admin; the team admin manages that team's members and roles only; a team member gets no buttons and a hand-made post is refused", async () => {
    const owner = await app.newPage();
    await signIn(owner, DEMO.grace);
    await barbaraJoinsAcme(owner);
    await owner.goto("/organizations/acme/teams");
    await expectHydrated(owner);
    await owner.getByLabel(teams.name).fill("Research");
    await owner.getByRole("button", { name: teams.createSubmit }).click();
    await expectText(team(owner, "Research").locator("legend"), "Research");

    // Grace adds Linus to Platform as its team admin, and Barbara as a team member.
    for (const [name, email, role] of [
      ["Linus Torvalds", DEMO.linus, "team-admin"],
      ["Barbara Liskov", DEMO.barbara, "team-member"],
    ] as const) {
      const platform = team(owner, "Platform");
      await platform.getByLabel(fill(teams.pickMember, { name: "Platform" })).selectOption({ label: name });
      await platform.getByLabel(fill(teams.newMemberRole, { name: "Platform" })).selectOption(role);
      await platform.getByRole("button", { name: teams.addMember }).click();
      await expectText(owner.getByRole("status"), en.common.saved);
      await expect.poll(() => teamRoleOf("Platform", email)).toBe(role);
    }
    await expect
      .poll(() => team(owner, "Platform").getByRole("rowheader").allInnerTexts())
      .toEqual(["Alan Turing", "Linus Torvalds", "Barbara Liskov"]);
    await expectAccessible(owner);
    await screenshot(owner, "teams-owner");

    // Linus, a plain member of the organization and Platform's team admin.
    const linus = await app.newPage();
    await signIn(linus, DEMO.linus);
    await linus.goto("/organizations/acme/teams");
    await expectHydrated(linus);
    const platform = team(linus, "Platform");
    const barbaraRole = platform.getByLabel(fill(teams.roleOf, { name: "Barbara Liskov", team: "Platform" }));
    await barbaraRole.selectOption("team-admin");
    await platform.getByRole("button", { name: `${teams.setRole} Barbara Liskov` }).click();
    await expectText(linus.getByRole("status"), en.common.saved);
    await expect.poll(() => teamRoleOf("Platform", DEMO.barbara)).toBe("team-admin");
    await team(linus, "Platform")
      .getByLabel(fill(teams.roleOf, { name: "Barbara Liskov", team: "Platform" }))
      .selectOption("team-member");
    await team(linus, "Platform")
      .getByRole("button", { name: `${teams.setRole} Barbara Liskov` })
      .click();
    await expectText(linus.getByRole("status"), en.common.saved);
    await expect.poll(() => teamRoleOf("Platform", DEMO.barbara)).toBe("team-member");
    // Nothing of Research, nor renaming, deleting or creating teams.
    expect(await team(linus, "Research").getByRole("button").count()).toBe(0);
    await expectText(team(linus, "Research").locator("p"), teams.membersHidden);
    // Alan is an organization admin: a team admin cannot change him, so no control on his row.
    expect(
      await team(linus, "Platform").locator('tr[data-member="Alan Turing"]').getByRole("button").count(),
    ).toBe(0);
    expect(await team(linus, "Platform").getByRole("button", { name: teams.rename }).count()).toBe(0);
    expect(await linus.getByRole("button", { name: teams.createSubmit }).count()).toBe(0);
    await expectAccessible(linus);
    await screenshot(linus, "teams-team-admin");
    await team(linus, "Platform")
      .getByRole("button", { name: `${teams.removeMember} Barbara Liskov` })
      .click();
    await expectText(linus.getByRole("status"), en.common.saved);
    await expect.poll(() => teamRoleOf("Platform", DEMO.barbara)).toBeNull();
    await team(linus, "Platform")
      .getByLabel(fill(teams.pickMember, { name: "Platform" }))
      .selectOption({ label: "Barbara Liskov" });
    await team(linus, "Platform").getByRole("button", { name: teams.addMember }).click();
    await expectText(linus.getByRole("status"), en.common.saved);
    await expect.poll(() => teamRoleOf("Platform", DEMO.barbara)).toBe("team-member");

    // Barbara, a team member, in German: roles in words, no button; a role change posted by hand.
    const barbara = await app.newPage();
    await signIn(barbara, DEMO.barbara);
    await barbara.goto("/organizations/acme/teams");
    await expectHydrated(barbara);
    await barbara.locator("#language-select").selectOption({ label: "Deutsch" });
    await barbara.locator(".language-form button").click();
    await expect.poll(() => barbara.locator("html").getAttribute("lang")).toBe("de");
    await expectHydrated(barbara);
    // No button on the teams page (the organization's header above it may offer "Make active").
    expect(await barbara.locator('section[aria-labelledby="teams-title"]').getByRole("button").count()).toBe(
      0,
    );
    expect(await barbara.locator('section[aria-labelledby="teams-title"]').count()).toBe(1);
    expect(await team(barbara, "Platform").getByTestId("team-role").allInnerTexts()).toEqual([
      de.organizations.teams.roles["team-member"],
      de.organizations.teams.roles["team-admin"],
      de.organizations.teams.roles["team-member"],
    ]);
    const platformId = (await app.db.collection("teams").findOne({ name: "Platform" }))!._id.toHexString();
    const linusId = (await app.db.collection("users").findOne({ email: DEMO.linus }))!._id.toHexString();
    await barbara.evaluate(
      ({ teamId, userId }) => {
        const form = document.createElement("form");
        form.method = "post";
        for (const [name, value] of Object.entries({
          intent: "set-role",
          teamId,
          userId,
          role: "team-member",
        })) {
          const input = document.createElement("input");
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      },
      { teamId: platformId, userId: linusId },
    );
    await expectText(barbara.getByTestId("error-summary").locator("li"), de.problems.TEAM_UPDATE_NOT_ALLOWED);
    await expect.poll(() => teamRoleOf("Platform", DEMO.linus)).toBe("team-admin");
    await expectAccessible(barbara);
    await screenshot(barbara, "teams-member-refused-de");
  });
});
