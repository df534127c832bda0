import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ObjectId } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "#test/admin.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import { type SmtpSink, startSmtpSink } from "../e2e/smtp-sink.ts";
import { useBuiltCli } from "./built-cli.ts";
import { runCli } from "./cli-process.ts";

/**
 * `tessera invitations send` through the built binary, run from an app directory whose options
 * module is TypeScript (`--config tessera.config.ts`, no tsx installed there): one JSON document,
 * exit codes 0, 4, 2 and 3, mails through a real SMTP server.
 */
const t = useTestAuth();
const cli = useBuiltCli("invitations", { operator: "ops" });
const app = cli.root;
let sink: SmtpSink;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sink = await startSmtpSink();
  await writeFile(join(app, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  await writeFile(
    join(app, "tessera.config.ts"),
    `import { limits } from "./limits.ts";
const options: { baseURL: string; organization: { invitationLimit: number } } = {
  baseURL: "https://app.example.com",
  organization: { invitationLimit: limits.invitations },
};
export default options;
`,
  );
  await writeFile(
    join(app, "limits.ts"),
    "export const limits: { invitations: number } = { invitations: 2 };\n",
  );
  // The CLI works on the test auth's database: the organization and owner come from its API.
  env = { ...cli.env, TESSERA_DB_NAME: t.db.databaseName, SMTP_URL: sink.url };
});

afterAll(async () => {
  await sink.close();
});

const send = (args: string[]) =>
  runCli(["--config", "tessera.config.ts", "invitations", "send", ...args], { env, cwd: app });

describe("tessera invitations send (built binary)", () => {
  it("--json: one document with every row; exit 4 when a row is refused, 0 when all are sent or skipped", async () => {
    const owner = await signIn(t, "e2e-owner");
    const orgId = await createOrganization(owner, "e2e-acme", "Acme");
    await writeFile(
      join(app, "team.csv"),
      "email,role\nann@example.com,admin\nbob@example.com\ncy@example.com\n",
    );

    const first = await send(["--org", "e2e-acme", "--csv", "team.csv", "--json"]);
    expect(first.code).toBe(4);
    const report = JSON.parse(first.stdout) as {
      organization: { id: string; slug: string };
      counts: Record<string, number>;
      rows: { line: number; email: string; status: string; code?: string; reason?: string }[];
    };
    expect(report.organization).toEqual({ id: orgId, slug: "e2e-acme" });
    expect(report.counts).toEqual({ sent: 2, wouldSend: 0, skipped: 0, refused: 1 });
    expect(report.rows.map((row) => [row.line, row.email, row.status, row.reason])).toEqual([
      [2, "ann@example.com", "sent", undefined],
      [3, "bob@example.com", "sent", undefined],
      [4, "cy@example.com", "refused", "Invitation limit reached"],
    ]);
    expect(first.stderr).toBe("");
    const mail = await sink.waitForMail("ann@example.com", "You have been invited");
    expect(mail.text).toContain("https://app.example.com/accept-invitation/");
    expect((await auditEvents(t, { actor: "cli:ops", action: "organization.invite" })).length).toBe(2);

    await writeFile(join(app, "again.csv"), "email\nann@example.com\nANN@example.com\n");
    const again = await send(["--org", orgId, "--csv", "again.csv"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      "2\tann@example.com\tmember\tskipped\tUser is already invited to this organization",
    );
    expect(again.stdout).toContain("3\tann@example.com\tmember\tskipped\tthe same address as line 2");
    expect(again.stdout).toContain("e2e-acme: 0 sent, 2 skipped, 0 refused (inviter e2e-owner@example.com)");
    expect(again.stderr).toContain("invitations to e2e-acme: ann@example.com skipped (1/2)");
  });

  it("a CSV as Excel saves it in most of the eight languages' locales (; between fields, BOM, CRLF, quotes) is read the same", async () => {
    const owner = await signIn(t, "excel-owner");
    const orgId = await createOrganization(owner, "e2e-excel", "Excel");
    await writeFile(
      join(app, "excel.csv"),
      '\uFEFFEmail;Role;Team\r\n"ann.excel@example.com";"admin,member";\r\n\r\nbob.excel@example.com;member;\r\n',
    );
    const result = await send(["--org", "e2e-excel", "--csv", "excel.csv", "--json"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      rows: { line: number; email: string; role: string; status: string }[];
    };
    expect(report.rows.map((row) => [row.line, row.email, row.role, row.status])).toEqual([
      [2, "ann.excel@example.com", "admin,member", "sent"],
      [4, "bob.excel@example.com", "member", "sent"],
    ]);
    const stored = await t.db
      .collection("invitations")
      .find({ organizationId: new ObjectId(orgId) }, { sort: { email: 1 } })
      .toArray();
    expect(stored.map((row) => [row.email, row.role, row.status])).toEqual([
      ["ann.excel@example.com", "admin,member", "pending"],
      ["bob.excel@example.com", "member", "pending"],
    ]);
  });

  it("a bad CSV is exit 2 and an unknown organization exit 3, each as one JSON error", async () => {
    await writeFile(join(app, "bad.csv"), "name\nann\n");
    const bad = await send(["--org", "e2e-acme", "--csv", "bad.csv", "--json"]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toEqual({
      error: { code: "USAGE", message: '--csv: unknown column "name" (columns: email, role, team)' },
    });
    await writeFile(join(app, "ok.csv"), "email\nzed@example.com\n");
    const unknown = await send(["--org", "nope", "--csv", "ok.csv", "--json"]);
    expect(unknown.code).toBe(3);
    expect(JSON.parse(unknown.stdout)).toEqual({
      error: {
        code: "ORGANIZATION_NOT_FOUND",
        message: 'no organization with the id or slug "nope" (`tessera orgs list` lists them)',
      },
    });
    const usage = await runCli(["invitations", "send", "--org", "e2e-acme"], { env, cwd: app });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("error: required option '--csv <file>' not specified");
  });

  it("a --config module that fails to load is exit 2 naming the file and the cause", async () => {
    await writeFile(join(app, "broken.config.ts"), "const options: = {};\nexport default options;\n");
    const broken = await runCli(["--config", "broken.config.ts", "migrate", "status"], { env, cwd: app });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`error: --config: ${join(app, "broken.config.ts")} failed to load:`);
    expect(broken.stderr).not.toContain("    at ");
    await writeFile(
      join(app, "missing-import.config.ts"),
      'import x from "./nowhere.ts";\nexport default x;\n',
    );
    const missing = await runCli(["--config", "missing-import.config.ts", "migrate", "status"], {
      env,
      cwd: app,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/failed to load: Cannot find module '.*nowhere\.ts'/);
  });
});
