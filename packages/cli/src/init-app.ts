import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Language, languageFromTag } from "@tessera/auth-core/i18n";
import type { Command } from "commander";
import { CliError, EXIT, usageError } from "./errors.ts";
import { FEATURES, planAuthFiles } from "./init-files.ts";
import {
  addEnvEntries,
  addIgnores,
  appNameOf,
  type EnvChange,
  missingIgnores,
  planScripts,
  type ScriptsPlan,
} from "./init-setup.ts";
import { type RunContext, report } from "./kit.ts";
import { APP_PACKAGES, checkoutRoot, packWorkspace } from "./pack-workspace.ts";

/** templates/remix-app's server and the page it refuses cross-site forms with (init writes them too). */
const SERVER_FILES = ["server.mjs", "server-listen.mjs", "app/routes/cross-site-refused.tsx"] as const;
/** What server.mjs imports beyond a stock Remix app's packages (versions from the template's package.json). */
const SERVER_DEPENDENCIES = ["express", "@remix-run/express"] as const;

const PROVIDERS = ["github", "google", "discord", "microsoft", "apple", "gitlab"] as const;
/** The BCP 47 tags --language takes (a region form such as de-AT or es-419 maps to its base). */
const LANGUAGE_TAGS = ["en", "ru", "uk", "es", "de", "pl", "fr", "tr"] as const;

export interface InitOptions {
  yes?: boolean | undefined;
  features?: string | undefined;
  providers?: string | undefined;
  language?: string | undefined;
  dbUri?: string | undefined;
  force?: boolean | undefined;
  dryRun?: boolean | undefined;
  /** Pack the workspace's packages into vendor/ when run from a checkout (default false; the commands' default true). */
  pack?: boolean | undefined;
}

type FileAction = "create" | "update" | "unchanged" | "kept" | "overwrite";

export interface InitResult {
  dir: string;
  dryRun: boolean;
  files: { path: string; action: FileAction }[];
  env: EnvChange;
  dependencies: { added: string[] };
  /** Where the app's @tessera packages come from: tarballs packed from this checkout, or the registry. */
  packages: "vendor" | "registry";
  /** Lines added to the app's .gitignore. */
  gitignore: { added: string[] };
  scripts: ScriptsPlan;
  /** False when the run changed (or, with --dry-run, would change) nothing. */
  changed: boolean;
}

/**
 * templates/: dist/templates in the published package (this file in dist/), else the repository's
 * templates/ above this file (src/ of the workspace, or the tests' bundle in node_modules/.e2e-dist).
 */
export function templatesDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const above = [1, 2, 3, 4].map((levels) => join(here, ...Array<string>(levels).fill(".."), "templates"));
  for (const candidate of [join(here, "templates"), ...above]) {
    if (existsSync(join(candidate, "auth"))) return candidate;
  }
  throw new CliError("NO_TEMPLATES", "the templates are missing from this installation");
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

function list(value: string | undefined, allowed: readonly string[], name: string): string[] {
  if (value === undefined || value.trim() === "") return [];
  const names = value.split(",").map((item) => item.trim());
  const unknown = names.filter((item) => !allowed.includes(item));
  if (unknown.length > 0)
    throw usageError(`--${name}: unknown ${unknown.join(", ")} (choose from ${allowed.join(", ")})`);
  return names;
}

interface Answers {
  features: string[];
  providers: string[];
  language: Language;
  dbUri: string | undefined;
}

/** .tessera/init.json: the hash of each file as init wrote it, and the choices it was written with. */
interface Manifest {
  files: Record<string, string>;
  answers?: Pick<Answers, "features" | "providers" | "language">;
}

/**
 * The answers: the flags given, else what the last run chose (kept in .tessera/init.json, so a
 * second `init --yes` keeps the first run's language, features and providers), else the defaults.
 */
async function ask(run: RunContext, options: InitOptions, previous: Partial<Answers>): Promise<Answers> {
  const answers: Answers = {
    features:
      options.features === undefined
        ? (previous.features ?? [...FEATURES])
        : list(options.features, FEATURES, "features"),
    providers:
      options.providers === undefined
        ? (previous.providers ?? [])
        : list(options.providers, PROVIDERS, "providers"),
    language: previous.language ?? "ENG",
    dbUri: options.dbUri,
  };
  if (options.language !== undefined) {
    const language = languageFromTag(options.language);
    if (language === null)
      throw usageError(
        `--language: a BCP 47 tag of one of ${LANGUAGE_TAGS.join(", ")} (a region form such as de-AT maps to its language)`,
      );
    answers.language = language;
  }
  if (options.yes || !run.io.interactive || run.json) return answers;
  const prompts = await import("@clack/prompts");
  const io = { input: run.io.stdin, output: run.io.stderr };
  const cancelled = (value: unknown) => {
    if (prompts.isCancel(value)) throw new CliError("CANCELLED", "cancelled", EXIT.failure);
  };
  const features = await prompts.multiselect({
    message: "Features",
    options: FEATURES.map((value) => ({ value, label: value })),
    initialValues: answers.features,
    required: false,
    ...io,
  });
  cancelled(features);
  const providers = await prompts.multiselect({
    message: "Social sign-in providers",
    options: PROVIDERS.map((value) => ({ value, label: value })),
    initialValues: answers.providers,
    required: false,
    ...io,
  });
  cancelled(providers);
  const dbUri = await prompts.text({
    message: "MongoDB URI (empty: an embedded database in .data/ while developing)",
    defaultValue: answers.dbUri ?? "",
    ...io,
  });
  cancelled(dbUri);
  return {
    ...answers,
    features: features as string[],
    providers: providers as string[],
    dbUri: (dbUri as string) || undefined,
  };
}

/** The app's Tessera options, from the answers. */
function configFile(answers: Answers, appName: string): string {
  const providers = answers.providers
    .map(
      (id) =>
        `    ${id}: { clientId: process.env.${id.toUpperCase()}_CLIENT_ID ?? "", clientSecret: process.env.${id.toUpperCase()}_CLIENT_SECRET ?? "" },`,
    )
    .join("\n");
  return `/**
 * Tessera's options for this app (written by \`tessera init\`; yours to change). \`tessera\` commands
 * run in the app find it. Secrets come from .env. Without MONGODB_URI the app starts an embedded
 * database in .data/ while developing (app/auth.server.ts); production needs MONGODB_URI.
 */
import type { AuthOptions } from "@tessera/auth-core";

// The app's .env: the one beside this file, so a \`tessera\` command run in a subfolder of the app
// reads the same database and secret as the app; then the working directory's (a built server has
// this file bundled elsewhere). A variable already set is never replaced.
for (const file of [new URL(".env", import.meta.url), ".env"]) {
  try {
    process.loadEnvFile(file);
  } catch {
    // No such .env: the environment is already set.
  }
}

const options: AuthOptions = {
  database: {
    uri: process.env.MONGODB_URI ?? "",
    dbName: process.env.TESSERA_DB_NAME ?? "app",
  },
  secret: process.env.TESSERA_SECRET ?? "",
  baseURL: process.env.TESSERA_BASE_URL ?? "http://localhost:5173",
  // The name the app's mails, authenticator apps and API reference show (from package.json's name).
  appName: ${JSON.stringify(appName)},
  language: "${answers.language}",
  // The link lands on app/routes/verify-email.tsx; in development the mail is at /dev/outbox.
  emailVerification: { sendOnSignUp: true },
${providers ? `  socialProviders: {\n${providers}\n  },\n` : ""}};

export default options;
`;
}

/**
 * \`tessera init [dir]\`: adds Tessera to a Remix app. Idempotent: a second run changes nothing and
 * says so; a file the user changed since init wrote it is kept unless --force; an existing secret is
 * never replaced; --dry-run writes nothing.
 */
export async function initAction(
  run: RunContext,
  dirArg: string | undefined,
  options: InitOptions,
): Promise<InitResult> {
  const dir = resolve(run.io.cwd, dirArg ?? ".");
  const pkgPath = join(dir, "package.json");
  if (!existsSync(pkgPath))
    throw usageError(`no package.json in ${dir}: run it in a Remix app, or \`tessera create <dir>\``);
  const pkg = JSON.parse(await readFile(pkgPath, "utf8")) as Record<
    string,
    Record<string, string> | undefined
  >;
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  if (!deps["@remix-run/react"] && !deps["@remix-run/node"]) {
    throw usageError(
      `${dir} is not a Remix app (no @remix-run/react in package.json): \`tessera create <dir>\` makes one`,
    );
  }
  const manifestPath = join(dir, ".tessera", "init.json");
  const manifest: Manifest = existsSync(manifestPath)
    ? (JSON.parse(await readFile(manifestPath, "utf8")) as Manifest)
    : { files: {} };
  const answers = await ask(run, options, manifest.answers ?? {});
  const dryRun = options.dryRun === true;
  // templates/auth/ for the chosen features, and the pages' words in the chosen language.
  const planned = await planAuthFiles(templatesDir(), answers.features, answers.language);
  // The template app's server (the client's address, the port it really got) and the page it sends
  // a cross-site form to: the same files \`create\` starts from.
  const app = join(templatesDir(), "remix-app");
  for (const file of SERVER_FILES) planned.set(file, await readFile(join(app, file), "utf8"));
  planned.set("tessera.config.ts", configFile(answers, appNameOf(pkg.name)));

  const files: InitResult["files"] = [];
  for (const [path, content] of planned) {
    const target = join(dir, path);
    let action: FileAction;
    if (!existsSync(target)) action = "create";
    else {
      const current = await readFile(target, "utf8");
      if (current === content) action = "unchanged";
      else if (manifest.files[path] === sha(current)) action = "update";
      else action = options.force ? "overwrite" : "kept";
    }
    files.push({ path, action });
    if (!dryRun && (action === "create" || action === "update" || action === "overwrite")) {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content);
    }
    if (action !== "kept") manifest.files[path] = sha(content);
  }

  // .env: only keys that are missing; an existing secret is never replaced.
  const env = await addEnvEntries(
    dir,
    [
      { key: "TESSERA_SECRET", value: randomBytes(32).toString("base64url") },
      // No URI given: none written, so that development uses the embedded database.
      ...(answers.dbUri ? [{ key: "MONGODB_URI", value: answers.dbUri }] : []),
      ...answers.providers.flatMap((id) => [
        { key: `${id.toUpperCase()}_CLIENT_ID`, value: "" },
        { key: `${id.toUpperCase()}_CLIENT_SECRET`, value: "" },
      ]),
      // server-listen.mjs follows the port the server got unless this names another host.
      {
        key: "TESSERA_BASE_URL",
        value: "https://app.example.com",
        note: "Set when visitors reach the app at another address than this machine's port (deployed behind a proxy, another host); unset, the base URL follows the port the server listens on.",
      },
    ],
    dryRun,
  );

  // Dependencies: added to package.json (install them with the app's package manager). From a
  // checkout the @tessera packages are packed into vendor/ (the registry does not have them).
  const root = options.pack ? checkoutRoot() : null;
  const serverPkg = JSON.parse(await readFile(join(app, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const wantedDeps: [string, string, "dependencies" | "devDependencies"][] = [
    ...APP_PACKAGES.map(([, name, field]): [string, string, typeof field] => [name, "^0.1.0", field]),
    ...SERVER_DEPENDENCIES.map((name): [string, string, "dependencies"] => [
      name,
      serverPkg.dependencies[name]!,
      "dependencies",
    ]),
  ];
  const isVendored = (spec: string | undefined) =>
    spec?.startsWith("file:") === true && existsSync(join(dir, spec.slice("file:".length)));
  let depsAdded = wantedDeps.filter(
    ([name]) => !deps[name] || (root !== null && name.startsWith("@tessera/") && !isVendored(deps[name])),
  );
  const scriptsField = { ...pkg.scripts };
  const scripts = planScripts(scriptsField);
  const ignores = await missingIgnores(dir);
  const isTessera = ([name]: [string, ...unknown[]]) => name.startsWith("@tessera/");
  if (!dryRun && root && depsAdded.some(isTessera)) {
    const specs = await packWorkspace(run, root, dir);
    for (const entry of wantedDeps) entry[1] = specs[entry[0]] ?? entry[1];
    depsAdded = wantedDeps.filter(
      ([name, spec]) => !deps[name] || (isTessera([name]) && deps[name] !== spec),
    );
  }
  if (!dryRun && (depsAdded.length > 0 || scripts.switched.length > 0)) {
    for (const [name, version, field] of depsAdded) {
      for (const other of ["dependencies", "devDependencies"]) delete pkg[other]?.[name];
      pkg[field] = { ...pkg[field], [name]: version };
    }
    pkg.scripts = scriptsField;
    await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  }
  if (!dryRun) await addIgnores(dir, ignores);
  const changed =
    files.some((file) => file.action !== "unchanged" && file.action !== "kept") ||
    env.added.length > 0 ||
    env.commented.length > 0 ||
    depsAdded.length > 0 ||
    scripts.switched.length > 0 ||
    ignores.length > 0;
  if (!dryRun && changed) {
    const { features, providers, language } = answers;
    manifest.answers = { features, providers, language };
    await mkdir(dirname(manifestPath), { recursive: true });
    await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return {
    dir,
    dryRun,
    files,
    env,
    dependencies: { added: depsAdded.map(([name]) => name) },
    packages: root ? "vendor" : "registry",
    gitignore: { added: ignores },
    scripts,
    changed,
  };
}

/**
 * The user's own dev/start scripts are left alone: what to change and why (server.mjs passes each
 * visitor's address to Remix and follows the port the dev server got with the base URL).
 */
function scriptsNote(scripts: ScriptsPlan): string[] {
  if (scripts.manual.length === 0) return [];
  return [
    "note      your package.json scripts are your own, so init left them; to give Tessera each visitor's address and the real port, change:",
    ...scripts.manual.map(
      ({ script, current, wanted }) => `            "${script}": "${current}"  →  "${wanted}"`,
    ),
  ];
}

export function printInit(run: RunContext, result: InitResult, next?: string): void {
  report(run, result, (data) => {
    const kept = data.files
      .filter((file) => file.action === "kept")
      .map((file) => `kept      ${file.path} (changed by you; --force overwrites it)`);
    if (!data.changed)
      return [
        `Tessera is already set up in ${data.dir}: nothing to change`,
        ...kept,
        ...scriptsNote(data.scripts),
      ];
    return [
      ...data.files
        .filter((file) => file.action !== "unchanged")
        .map((file) =>
          file.action === "kept"
            ? `kept      ${file.path} (changed by you; --force overwrites it)`
            : `${(data.dryRun ? `would ${file.action}` : file.action).padEnd(9)} ${file.path}`,
        ),
      ...(data.env.added.length > 0
        ? [`${data.dryRun ? "would add" : "added"}     ${data.env.added.join(", ")} to .env`]
        : []),
      ...(data.env.commented.length > 0
        ? [
            `${data.dryRun ? "would add" : "added"}     ${data.env.commented.join(", ")} to .env, commented out (set it when deployed behind a proxy or on another host)`,
          ]
        : []),
      ...(data.dependencies.added.length > 0
        ? [
            `${data.dryRun ? "would add" : "added"}     ${data.dependencies.added.join(", ")} to package.json${next ? "" : " (install them)"}`,
          ]
        : []),
      ...(data.packages === "vendor" && !data.dryRun
        ? ["packed    @tessera packages from this checkout into vendor/ (file: links in package.json)"]
        : []),
      ...(data.gitignore.added.length > 0
        ? [`${data.dryRun ? "would add" : "added"}     ${data.gitignore.added.join(", ")} to .gitignore`]
        : []),
      ...(data.scripts.switched.length > 0
        ? [
            `${data.dryRun ? "would set" : "set"}       ${data.scripts.switched.map((name) => `"${name}"`).join(", ")} in package.json to server.mjs`,
          ]
        : []),
      ...scriptsNote(data.scripts),
      ...(data.dryRun
        ? []
        : [
            next ??
              "next: install the dependencies, then `npm run dev` (it applies the migrations; `npx tessera migrate up` for a database of your own)",
          ]),
    ];
  });
}

export const withInitOptions = (command: Command) =>
  command
    .option("-y, --yes", "ask nothing: take the flags and defaults")
    .option("--features <list>", `comma separated: ${FEATURES.join(",")} (default all)`)
    .option("--providers <list>", `social sign-in: ${PROVIDERS.join(",")}`)
    .option("--language <tag>", `messages' language, a BCP 47 tag: ${LANGUAGE_TAGS.join(", ")} (default en)`)
    .option("--db-uri <uri>", "MongoDB URI for .env (default none: an embedded database while developing)")
    .option("--force", "overwrite files you changed")
    .option("--dry-run", "print what would be written, write nothing")
    .option("--no-pack", "take @tessera packages from the registry even when run from a checkout");
