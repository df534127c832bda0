import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { snapshotDatabase } from "#test/database.ts";
import { addMember, createOrganization, type SignedIn, signIn } from "#test/organization.ts";
import { newAuthenticator, registerPasskey } from "#test/passkey.ts";
import { createTestIdp, registerSamlConnection } from "#test/saml-idp.ts";
import { claimDomain } from "#test/sso-domains.ts";
import { TEST_SECRET, useTestAuth } from "#test/test-auth.ts";
import { orgsTeamsAddAction } from "../../packages/cli/src/commands/orgs-teams.ts";
import { webhooksAddAction } from "../../packages/cli/src/commands/webhooks.ts";
import { createProgram } from "../../packages/cli/src/program.ts";
import { buildCli, CLI_DIR, runCli } from "./cli-process.ts";
import { testRun } from "./run-context.ts";

/**
 * Every command that asks before it changes something refuses without a terminal and without
 * `--yes`: exit 2, and the database exactly as it was. Run through the built
 * binary with pipes for stdin, stdout and stderr, as a script or CI job runs it. The table is
 * checked against the command tree and the sources, so a new command that takes `--yes` or asks
 * for a confirmation without a row here fails the first test.
 */
const t = useTestAuth();
vi.setConfig({ testTimeout: 180_000 });

let victim: SignedIn;
let member: SignedIn;
let owner: SignedIn;
let org: string;
let sessionId: string;
let passkeyId: string;
let webhookId: string;
let dir: string;
/** An options module with webhooks on (no worker: nothing is sent), for the webhooks commands. */
let webhooksConfig: string;

interface Row {
  /** The command path, as `tessera <path>`. */
  path: string;
  args(): string[];
}

/** Every confirming command, with arguments that name something real (so only the question stops it). */
const CONFIRMING: Row[] = [
  { path: "users ban", args: () => [victim.email, "--reason", "no terminal"] },
  { path: "users set-password", args: () => [victim.email, "--password", "a brand new password 42"] },
  { path: "users revoke-sessions", args: () => [victim.email] },
  { path: "users remove", args: () => [victim.email] },
  { path: "users remove-passkey", args: () => [victim.email, passkeyId] },
  { path: "orgs remove-member", args: () => [org, member.email] },
  { path: "orgs delete", args: () => [org] },
  { path: "sessions revoke", args: () => [sessionId] },
  { path: "orgs domains remove", args: () => [org, "confirm-org.com"] },
  { path: "orgs sso disable", args: () => [org, "confirm-sso"] },
  { path: "orgs sso remove", args: () => [org, "confirm-sso"] },
  { path: "orgs scim remove", args: () => [org, "confirm-scim"] },
  { path: "orgs teams remove", args: () => [org, "confirm-team"] },
  { path: "webhooks remove", args: () => [webhookId, "--config", webhooksConfig] },
];

/**
 * Commands whose `--yes` is no confirmation: `init` and `create` scaffold an app's files ("ask
 * nothing: take the flags and defaults"), touch no database, and ask their questions only on a terminal.
 */
const YES_WITHOUT_CONFIRMATION = ["init", "create"];

type Command = ReturnType<typeof createProgram>;

function commandsWithYes(command: Command, prefix = ""): string[] {
  return command.commands.flatMap((sub) => {
    const path = `${prefix}${sub.name()}`;
    const own = sub.options.some((option) => option.long === "--yes") ? [path] : [];
    return [...own, ...commandsWithYes(sub, `${path} `)];
  });
}

function countConfirmations(): number {
  const folder = join(CLI_DIR, "src", "commands");
  return readdirSync(folder)
    .filter((file) => file.endsWith(".ts"))
    .reduce((sum, file) => {
      const text = readFileSync(join(folder, file), "utf8");
      return sum + (text.match(/\bconfirmOrRefuse\(/g)?.length ?? 0);
    }, 0);
}

beforeAll(async () => {
  await buildCli();
  owner = await signIn(t, "confirm-owner");
  victim = await signIn(t, "confirm-victim");
  member = await signIn(t, "confirm-member");
  org = await createOrganization(owner, "confirm-org");
  await addMember(t, org, member, "member");
  await addMember(t, org, victim, "member");
  const session = await t.db.collection("sessions").findOne({ userId: new ObjectId(victim.userId) });
  sessionId = session!._id.toHexString();
  passkeyId = (await registerPasskey(victim.browser, newAuthenticator())).body.id;
  await claimDomain(owner, "confirm-org.com");
  await registerSamlConnection(owner.browser, org, createTestIdp(), { providerId: "confirm-sso" });
  const scim = await owner.browser.post("/scim/generate-token", {
    organizationId: org,
    providerId: "confirm-scim",
  });
  if (scim.status !== 200) throw new Error(`generate-token answered ${scim.status}`);
  dir = await mkdtemp(join(tmpdir(), "tessera-confirmations-"));
  webhooksConfig = join(dir, "tessera.config.ts");
  await writeFile(
    webhooksConfig,
    'export default { baseURL: "https://app.example.com", webhooks: { enabled: true, worker: false } };\n',
  );
  const run = testRun(t.db.databaseName, { json: true });
  run.connection.config = webhooksConfig;
  webhookId = (await webhooksAddAction(run, "https://hooks.example.com/confirm", {})).endpoint.id;
  await orgsTeamsAddAction(testRun(t.db.databaseName), org, "confirm-team");
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("commands that ask before they change something", () => {
  it("the table lists every command that takes --yes, and as many as call confirmOrRefuse", () => {
    const declared = commandsWithYes(createProgram()).filter(
      (path) => !YES_WITHOUT_CONFIRMATION.includes(path),
    );
    expect(declared.sort()).toEqual(CONFIRMING.map((row) => row.path).sort());
    expect(countConfirmations()).toBe(CONFIRMING.length);
  });

  it.each(CONFIRMING.map((row) => [row.path, row] as const))(
    "tessera %s without a terminal and without --yes: exit 2, nothing changed",
    async (path, row) => {
      const env = {
        MONGODB_URI: inject("mongoUri"),
        TESSERA_SECRET: TEST_SECRET,
        TESSERA_OPERATOR: "tester",
      };
      const before = await snapshotDatabase(t.db);
      const result = await runCli([...path.split(" "), ...row.args(), "--db", t.db.databaseName], { env });
      expect(result.code, result.stderr + result.stdout).toBe(2);
      expect(result.stderr).toMatch(/refused without --yes \(no terminal to ask on\)/);
      expect(await snapshotDatabase(t.db)).toEqual(before);
    },
  );
});
