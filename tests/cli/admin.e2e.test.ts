import { describe, expect, it } from "vitest";
import { useBuiltCli } from "./built-cli.ts";
import { runCli } from "./cli-process.ts";

/** Administration through the built binary: --json shapes, exit codes, refusal without a terminal. */
const { env } = useBuiltCli("admin", { operator: "ops", migrate: true });

describe("tessera users (built binary)", () => {
  it("create --password-stdin, list --json, ban (refused without --yes, then with it), audit list", async () => {
    const created = await runCli(
      ["users", "create", "ada@example.com", "--name", "Ada", "--password-stdin", "--json"],
      {
        env,
        input: "correct horse battery staple\n",
      },
    );
    expect(created.code).toBe(0);
    const { user } = JSON.parse(created.stdout) as { user: { id: string; email: string } };
    expect(user.email).toBe("ada@example.com");

    const list = await runCli(["users", "list", "--json"], { env });
    expect(JSON.parse(list.stdout)).toMatchObject({
      total: 1,
      offset: 0,
      users: [{ id: user.id, banned: false }],
    });
    const plain = await runCli(["users", "list"], { env });
    expect(plain.stdout.split("\t").slice(0, 3)).toEqual([user.id, "ada@example.com", "Ada"]);

    const refused = await runCli(["users", "ban", "ada@example.com"], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("refused without --yes");
    const banned = await runCli(["users", "ban", "ada@example.com", "--reason", "spam", "--yes", "--json"], {
      env,
    });
    expect(banned.code).toBe(0);
    expect(JSON.parse(banned.stdout)).toMatchObject({ user: { banned: true, banReason: "spam" } });

    const audit = await runCli(["audit", "list", "--json"], { env });
    const events = (JSON.parse(audit.stdout) as { events: { action: string; actor: string }[] }).events;
    expect(events.map((event) => [event.action, event.actor])).toEqual([
      ["user.ban", "cli:ops"],
      ["user.create", "cli:ops"],
    ]);
    // Six processes, each starting node and connecting: a loaded 2-core machine needs more than 30 s.
  }, 120_000);

  it("an unknown user: exit 3, the error as JSON on stdout with --json, one line on stderr", async () => {
    const result = await runCli(["users", "get", "nobody@example.com", "--json"], { env });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({
      error: { code: "USER_NOT_FOUND", message: "no user with the email nobody@example.com" },
    });
    expect(result.stderr).toBe("error: no user with the email nobody@example.com\n");
  });
});
