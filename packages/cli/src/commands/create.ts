import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { Command } from "commander";
import { CliError, EXIT, usageError } from "../errors.ts";
import {
  type InitOptions,
  type InitResult,
  initAction,
  printInit,
  templatesDir,
  withInitOptions,
} from "../init-app.ts";
import { contextOf, type RunContext } from "../kit.ts";
import { checkoutRoot } from "../pack-workspace.ts";

const run$ = promisify(execFile);

export interface CreateOptions extends InitOptions {
  /** Run `npm install` in the new app (default false; the command's default true). */
  install?: boolean | undefined;
}

export interface CreateResult extends InitResult {
  installed: boolean;
}

/**
 * `tessera create <dir>`: a new Remix app from templates/remix-app, init on it, its @tessera packages
 * packed from this checkout into vendor/ (or the registry's versions when the CLI was installed from
 * a registry), then `npm install`.
 */
export async function createAction(
  run: RunContext,
  dirArg: string,
  options: CreateOptions,
): Promise<CreateResult> {
  const dir = resolve(run.io.cwd, dirArg);
  if (existsSync(dir) && (await readdir(dir)).length > 0) throw usageError(`${dir} exists and is not empty`);
  const packages = options.pack && checkoutRoot() ? "vendor" : "registry";
  if (options.dryRun)
    return {
      dir,
      dryRun: true,
      files: [],
      env: { added: [], commented: [] },
      dependencies: { added: [] },
      gitignore: { added: [] },
      scripts: { switched: [], manual: [] },
      changed: true,
      packages,
      installed: false,
    };
  await cp(join(templatesDir(), "remix-app"), dir, { recursive: true });
  // npm drops .gitignore from packages: the template carries it as `gitignore`.
  if (existsSync(join(dir, "gitignore"))) await rename(join(dir, "gitignore"), join(dir, ".gitignore"));
  const pkgPath = join(dir, "package.json");
  const pkg = JSON.parse(await readFile(pkgPath, "utf8")) as { name: string };
  pkg.name =
    dirArg
      .split(/[\\/]/)
      .filter(Boolean)
      .at(-1)
      ?.toLowerCase()
      .replace(/[^a-z0-9-]/g, "-") ?? "tessera-app";
  await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  // init packs the workspace packages into vendor/ when run from a checkout (pack-workspace.ts).
  const result = await initAction(run, dir, options);
  if (options.install) {
    run.io.stderr.write("npm install …\n");
    try {
      await run$("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? String(error);
      throw new CliError("INSTALL_FAILED", `npm install failed in ${dir}:\n${stderr.trim()}`, EXIT.failure);
    }
  }
  return { ...result, installed: options.install === true };
}

export const createCommand = withInitOptions(
  new Command("create").description("make a new Remix app with Tessera in it").argument("<dir>"),
)
  .option("--no-install", "do not run npm install")
  .action(async (dir: string, options: CreateOptions, command: Command) => {
    const run = contextOf(command);
    const result = await createAction(run, dir, options);
    const cd = `cd ${relative(run.io.cwd, result.dir) || "."}`;
    printInit(
      run,
      result,
      result.installed
        ? `next: ${cd} && npm run dev   (an embedded database starts in .data/; mails at /dev/outbox)`
        : `next: ${cd} && npm install && npm run dev`,
    );
  });
