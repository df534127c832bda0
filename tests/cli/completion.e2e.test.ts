import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { useBuiltCli } from "./built-cli.ts";
import { runCli } from "./cli-process.ts";

/**
 * What Tab offers in zsh and fish, from the scripts `tessera completion zsh|fish` prints (bash's in
 * usability.e2e.test.ts). CI installs both shells (.ci/run). The words offered must be the ones the
 * typed command takes: `tessera users create` is not `tessera create`.
 */
const run = promisify(execFile);
const { root } = useBuiltCli("completion");

async function scriptFor(shell: "zsh" | "fish"): Promise<string> {
  const result = await runCli(["completion", shell]);
  expect(result.code, result.stderr).toBe(0);
  const file = join(root, `tessera.${shell}`);
  await writeFile(file, result.stdout);
  return file;
}

/** fish's own answer to Tab after `line` (`complete -C`), the words only, sorted. */
async function fishOffers(file: string, line: string): Promise<string[]> {
  const { stdout } = await run("fish", ["--no-config", "-c", `source ${file}; complete -C '${line}'`]);
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((entry) => entry.split("\t")[0]!)
    .sort();
}

/**
 * What the zsh function hands compadd for the words typed (`words`/`CURRENT` as zsh's completion
 * system sets them), with compadd and compdef standing in for the completion system's builtins.
 */
async function zshOffers(file: string, typed: string[]): Promise<string[]> {
  const words = typed.map((word) => `'${word}'`).join(" ");
  const { stdout } = await run("zsh", [
    "-f",
    "-c",
    `compdef() { :; }; compadd() { shift; print -l -- "$@"; }; source ${file}; words=(${words}); CURRENT=${typed.length}; _tessera`,
  ]);
  const current = typed.at(-1) ?? "";
  return stdout
    .split("\n")
    .filter((word) => word !== "" && word.startsWith(current))
    .sort();
}

describe("shell completion in fish", () => {
  it("Tab after `tessera us` completes users, and the users subcommands after it", async () => {
    const file = await scriptFor("fish");
    expect(await fishOffers(file, "tessera us")).toEqual(["users"]);
    expect(await fishOffers(file, "tessera --json users l")).toEqual(["list"]);
    expect(await fishOffers(file, "tessera users list --se")).toEqual(["--search", "--search-field"]);
    expect(await fishOffers(file, "tessera db start --p")).toEqual(["--port"]);
    expect(await fishOffers(file, "tessera completion ")).toEqual(["bash", "fish", "zsh"]);
  });

  it("`tessera users create --` offers that command's options and the global ones, not `tessera create`'s", async () => {
    const file = await scriptFor("fish");
    const offered = await fishOffers(file, "tessera users create --");
    expect(offered).toContain("--password-stdin");
    expect(offered).toContain("--json");
    expect(offered).not.toContain("--no-pack");
    expect(offered).not.toContain("--features");
    expect(await fishOffers(file, "tessera create --no-")).toEqual([
      "--no-color",
      "--no-install",
      "--no-pack",
    ]);
  });

  it("--version is offered only before a command", async () => {
    const file = await scriptFor("fish");
    expect(await fishOffers(file, "tessera --v")).toEqual(["--version"]);
    expect(await fishOffers(file, "tessera users --v")).toEqual([]);
  });
});

describe("shell completion in zsh", () => {
  it("Tab after `tessera us` completes users, and each command's own words after it", async () => {
    const file = await scriptFor("zsh");
    expect(await zshOffers(file, ["tessera", "us"])).toEqual(["users"]);
    expect(await zshOffers(file, ["tessera", "--json", "users", "l"])).toEqual(["list"]);
    expect(await zshOffers(file, ["tessera", "users", "list", "--se"])).toEqual([
      "--search",
      "--search-field",
    ]);
    const create = await zshOffers(file, ["tessera", "users", "create", "--"]);
    expect(create).toContain("--password-stdin");
    expect(create).not.toContain("--no-pack");
    expect(await zshOffers(file, ["tessera", "completion", "z"])).toEqual(["zsh"]);
  });
});
