import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useBuiltCli } from "./built-cli.ts";
import { CLI_BIN_COMMAND, runCli, spawnCli } from "./cli-process.ts";

/**
 * What a person at a terminal relies on, through the built binary: help that starts with examples
 * and lists the global options everywhere, usage errors as JSON under --json, TERM=dumb, empty
 * lists that say so, completion scripts, `db start --port`.
 */
const { dbName, env, root } = useBuiltCli("usability", {
  secret: "x".repeat(40),
  alsoDrop: ["_dumb", "_xterm256color"],
});
const run = promisify(execFile);

/** Whether `shell` is on PATH (.ci/run installs zsh and fish; a machine without them skips). */
const has = (shell: string) =>
  ["/usr/bin", "/bin", "/usr/local/bin"].some((dir) => existsSync(join(dir, shell)));

describe("tessera at a terminal", () => {
  it("help starts with examples; every subcommand's help lists the global options", async () => {
    const top = await runCli(["--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout.split("\n").slice(0, 2)).toEqual([
      "Examples:",
      "  tessera doctor                      check the app's database and configuration",
    ]);
    expect(top.stdout).toContain("tessera.config.ts|mjs|js here or in a parent");
    const sub = await runCli(["users", "list", "--help"]);
    expect(sub.code).toBe(0);
    expect(sub.stdout.startsWith("Examples:\n  tessera users list --search example.com --limit 20\n")).toBe(
      true,
    );
    const globals = sub.stdout.slice(sub.stdout.indexOf("Global Options:"));
    for (const flag of ["--uri <uri>", "--db <name>", "--config <file>", "--json", "--no-color"])
      expect(globals).toContain(flag);
    expect((await runCli(["db", "start", "--help"])).stdout).toContain("Global Options:");
  });

  it("a usage error under --json is one JSON document on stdout (and the message on stderr): exit 2", async () => {
    const unknown = await runCli(["secret", "--bogus", "--json"]);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toEqual({
      error: { code: "USAGE", message: "unknown option '--bogus'" },
    });
    expect(unknown.stderr).toContain("error: unknown option '--bogus'");
    const none = await runCli(["--json"]);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout)).toEqual({
      error: { code: "USAGE", message: "no command given (--help lists the commands)" },
    });
    expect(none.stderr).toContain("Usage: tessera [options] [command]");
    const missing = await runCli(["--json", "sessions", "list"], { env });
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toEqual({
      error: { code: "USAGE", message: "required option '--user <user>' not specified" },
    });
  });

  it("empty lists say so on stderr, stdout stays empty for scripts; --json gives the empty list", async () => {
    for (const [args, message] of [
      [["users", "list"], "No users.\n"],
      [["users", "list", "--search", "zzz"], "No user matches “zzz”.\n"],
      [["users", "list", "--banned"], "No banned users.\n"],
      [["orgs", "list"], "No organizations.\n"],
      [["audit", "list"], "No audit events.\n"],
    ] as const) {
      const result = await runCli(args, { env });
      expect(result).toEqual({ code: 0, stdout: "", stderr: message });
    }
    const json = await runCli(["users", "list", "--json"], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({ users: [], total: 0 });
    expect(json.stderr).toBe("");
  });

  it("TERM=dumb on a real terminal: no colour, no cursor movement, plain progress lines (other terminals get Ink)", async () => {
    // `script` gives the CLI a pseudo-terminal (stdin, stdout and stderr), as a person's shell would.
    const onTerminal = async (term: string) => {
      const terminalEnv: NodeJS.ProcessEnv = {
        ...process.env,
        ...env,
        TESSERA_DB_NAME: `${dbName}_${term.replace(/\W/g, "")}`,
        TERM: term,
      };
      // A person's terminal: neither CI nor NO_COLOR set.
      delete terminalEnv.CI;
      delete terminalEnv.NO_COLOR;
      const { stdout } = await run("script", ["-qc", `${CLI_BIN_COMMAND} migrate up`, "/dev/null"], {
        env: terminalEnv,
      });
      return stdout;
    };
    const dumb = await onTerminal("dumb");
    expect(dumb).toContain("migrate: 0001-core-indexes (0/");
    expect(dumb).toContain("applied 0001-core-indexes");
    expect(dumb).not.toContain("\u001b");
    const fancy = await onTerminal("xterm-256color");
    expect(fancy).toContain("applied 0001-core-indexes");
    expect(fancy).not.toContain("migrate: 0001-core-indexes (0/");
    expect(fancy).toContain("\u001b[");
  });

  it("completion bash is a script bash parses, and it completes subcommands and options", async () => {
    const result = await runCli(["completion", "bash"]);
    expect(result.code).toBe(0);
    const file = join(root, "tessera.bash");
    await writeFile(file, result.stdout);
    await run("bash", ["-n", file]);
    const complete = async (words: string[]) =>
      (
        await run("bash", [
          "-c",
          `source ${file}; COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _tessera; echo "\${COMPREPLY[*]}"`,
        ])
      ).stdout.trim();
    expect(await complete(["tessera", "--json", "users", "l"])).toBe("list");
    expect(await complete(["tessera", "users", "list", "--se"])).toBe("--search --search-field");
    expect(await complete(["tessera", "db", "start", "--p"])).toBe("--port");
    // The argument's values too: the shells `completion` takes.
    expect(await complete(["tessera", "completion", ""])).toMatch(/^bash zsh fish( |$)/);
  });

  for (const shell of ["zsh", "fish"] as const) {
    it.skipIf(!has(shell))(
      `completion ${shell} is a script ${shell} -n parses (skipped: ${shell} is not installed here)`,
      async () => {
        const result = await runCli(["completion", shell]);
        expect(result.code).toBe(0);
        const file = join(root, `tessera.${shell}`);
        await writeFile(file, result.stdout);
        await run(shell, ["-n", file]);
      },
    );
  }

  it("completion for an unknown shell is a usage error naming the choices", async () => {
    const result = await runCli(["completion", "tcsh"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Allowed choices are bash, zsh, fish.");
  });

  it("db start --port listens on that port; a port in use is refused before anything starts", async () => {
    const port = await freePort();
    const cwd = await mkdtemp(join(tmpdir(), "tessera-db-port-"));
    const child = spawnCli(
      ["db", "start", "--port", String(port), "--json"],
      { MONGODB_URI: undefined },
      cwd,
    );
    try {
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("}")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      const { uri } = JSON.parse(stdout) as { uri: string };
      expect(new URL(uri).port).toBe(String(port));
      const state = JSON.parse(await readFile(join(cwd, ".tessera", "db.json"), "utf8")) as { uri: string };
      expect(state.uri).toBe(uri);

      const taken = await runCli(["db", "start", "--port", String(port), "--data-dir", "other"], {
        cwd: root,
        env: { MONGODB_URI: undefined },
      });
      expect(taken.code).toBe(1);
      expect(taken.stderr).toBe(
        `error: --port ${port}: the port is in use (choose another, or leave --port out)\n`,
      );
      expect(existsSync(join(root, "other"))).toBe(false);
      const bad = await runCli(["db", "start", "--port", "80"], {
        cwd: root,
        env: { MONGODB_URI: undefined },
      });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("--port must be a whole number from 1024 to 65535, got 80");
    } finally {
      child.kill("SIGINT");
      await new Promise((resolve) => child.on("exit", resolve));
      await rm(cwd, { recursive: true, force: true });
    }
  }, 120_000);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}
