import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import { auditEvents } from "#test/admin.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { TEST_SECRET, useTestAuth } from "#test/test-auth.ts";
import {
  orgsScimAddAction,
  orgsScimListAction,
  orgsScimRemoveAction,
} from "../../packages/cli/src/commands/orgs-scim.ts";
import { EXIT } from "../../packages/cli/src/errors.ts";
import { buildCli, runCli } from "./cli-process.ts";
import { exitOf, testRun } from "./run-context.ts";

/**
 * `tessera orgs scim list|add|remove` against the test database: the token the command prints is
 * the one the SCIM endpoint accepts, stored only as its hash; remove revokes it at once.
 */
const t = useTestAuth();
// Building the CLI and four runs of the binary on two shared cores.
vi.setConfig({ testTimeout: 180_000 });
beforeAll(() => buildCli(), 300_000);
const run = (json = false) => testRun(t.db.databaseName, { json });

function scimUsers(token: string) {
  return t.auth.handler(
    new Request(`${t.auth.context.apiURL}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } }),
  );
}

describe("tessera orgs scim", () => {
  it("add prints the token once with the base URL; the directory uses it; list never shows it; remove revokes it; all audited", async () => {
    const owner = await signIn(t, "scim-cli-owner");
    const id = await createOrganization(owner, "umbrella", "Umbrella");
    const made = await orgsScimAddAction(run(), "umbrella", "entra");
    expect(made).toMatchObject({ organizationId: id, providerId: "entra" });
    expect(made.scimToken).toMatch(/^scim_[A-Za-z0-9]{43}$/);
    expect(made.baseUrl).toBe(`${t.auth.context.apiURL}/scim/v2`);
    expect((await scimUsers(made.scimToken)).status).toBe(200);
    const stored = await t.db.collection("scimTokens").find({ providerId: "entra" }).toArray();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(made.scimToken.slice(5));

    const listed = await orgsScimListAction(run(), id);
    expect(listed.map((row) => row.providerId)).toEqual(["entra"]);
    expect(JSON.stringify(listed)).not.toContain(made.scimToken);

    // add again: a new token, the old one refused from now on.
    const rotated = await orgsScimAddAction(run(), "umbrella", "entra");
    expect((await scimUsers(made.scimToken)).status).toBe(401);
    expect((await scimUsers(rotated.scimToken)).status).toBe(200);

    expect(await exitOf(orgsScimRemoveAction(run(), "umbrella", "entra", {}))).toEqual([EXIT.usage, "USAGE"]);
    expect((await scimUsers(rotated.scimToken)).status).toBe(200);
    expect(await orgsScimRemoveAction(run(), "umbrella", "entra", { yes: true })).toEqual({
      providerId: "entra",
    });
    expect((await scimUsers(rotated.scimToken)).status).toBe(401);
    expect(await orgsScimListAction(run(), "umbrella")).toEqual([]);

    const actions = (await auditEvents(t, { actor: "cli:tester" }))
      .map((event) => event.action)
      .filter((action) => action.startsWith("organization.scim"));
    expect(actions).toEqual([
      "organization.scim-token-create",
      "organization.scim-token-create",
      "organization.scim-token-revoke",
    ]);
  });

  it("refusals exit with their meaning and change nothing", async () => {
    const owner = await signIn(t, "scim-cli-refusals");
    const id = await createOrganization(owner, "hooli", "Hooli");
    expect(await exitOf(orgsScimAddAction(run(), "no-such-org", "okta"))).toEqual([
      EXIT.notFound,
      "ORGANIZATION_NOT_FOUND",
    ]);
    expect(await exitOf(orgsScimAddAction(run(), "hooli", "has:colon"))).toEqual([
      EXIT.usage,
      "VALIDATION_ERROR",
    ]);
    expect(await exitOf(orgsScimRemoveAction(run(), "hooli", "okta", { yes: true }))).toEqual([
      EXIT.notFound,
      "SCIM_CONNECTION_NOT_FOUND",
    ]);
    expect(await orgsScimListAction(run(), id)).toEqual([]);
  });

  it("the binary prints the token once with its base URL, list a table without it, --json the array", async () => {
    const owner = await signIn(t, "scim-cli-binary");
    const id = await createOrganization(owner, "stark", "Stark");
    const env = { MONGODB_URI: inject("mongoUri"), TESSERA_SECRET: TEST_SECRET, TESSERA_OPERATOR: "tester" };
    const db = ["--db", t.db.databaseName];
    const added = await runCli(["orgs", "scim", "add", "stark", "okta", ...db], { env });
    expect(added.code, added.stderr).toBe(0);
    const token = /Bearer token {3}(scim_\S+)/.exec(added.stdout)?.[1];
    expect(added.stdout.split("\n").slice(0, 2)).toEqual([
      "SCIM connection okta of stark: give the directory these two (the token is shown only now)",
      `  SCIM base URL  ${t.auth.context.apiURL}/scim/v2`,
    ]);
    expect((await scimUsers(token!)).status).toBe(200);
    const table = await runCli(["orgs", "scim", "list", "stark", ...db], { env });
    expect(table.code).toBe(0);
    // No terminal: tab-separated rows without the header, for scripts (table.ts).
    expect(table.stdout).toMatch(/^okta\t[0-9a-f]{24}\t\S+\n$/);
    expect(table.stdout).not.toContain(token!);
    const json = await runCli(["orgs", "scim", "list", "stark", "--json", ...db], { env });
    expect(JSON.parse(json.stdout)).toEqual([
      { id: expect.any(String), organizationId: id, providerId: "okta", createdAt: expect.any(String) },
    ]);
    const empty = await runCli(["orgs", "scim", "list", "no-such-org", ...db], { env });
    expect(empty.code).toBe(EXIT.notFound);
  });
});
