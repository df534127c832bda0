import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Lines the app's .gitignore needs: .env holds TESSERA_SECRET, .data/ the database and the dev outbox. */
const IGNORED = [".env", ".data/"] as const;

/** The lines of IGNORED the app's .gitignore lacks (`.data`, `/.data/` … count as present). */
export async function missingIgnores(dir: string): Promise<string[]> {
  const path = join(dir, ".gitignore");
  const text = existsSync(path) ? await readFile(path, "utf8") : "";
  const present = new Set(text.split("\n").map((line) => line.trim().replace(/^\//, "").replace(/\/$/, "")));
  return IGNORED.filter((line) => !present.has(line.replace(/\/$/, "")));
}

/** Appends `lines` to the app's .gitignore (made when missing), keeping what is there. */
export async function addIgnores(dir: string, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const path = join(dir, ".gitignore");
  const text = existsSync(path) ? await readFile(path, "utf8") : "";
  const prefix = text === "" || text.endsWith("\n") ? text : `${text}\n`;
  await writeFile(
    path,
    `${prefix}# Tessera: the secret, the embedded database and the dev outbox\n${lines.join("\n")}\n`,
  );
}

/**
 * The scripts of a stock Remix app and what replaces them: server.mjs gives Remix each visitor's
 * address (rate limits per visitor) and, in development, follows the port it really got with the
 * base URL (`remix vite:dev` and `remix-serve` give neither; templates/README.md).
 */
const SCRIPTS = {
  dev: { stock: "remix vite:dev", ours: "node server.mjs" },
  start: { stock: "remix-serve ./build/server/index.js", ours: "NODE_ENV=production node server.mjs" },
} as const;

export interface ScriptsPlan {
  /** Scripts switched from Remix's stock command to server.mjs. */
  switched: string[];
  /** Scripts left alone because they are the user's own: the change to make by hand. */
  manual: { script: string; current: string; wanted: string }[];
}

/** Which of package.json's dev/start scripts to switch; switches them in `scripts`. */
export function planScripts(scripts: Record<string, string>): ScriptsPlan {
  const plan: ScriptsPlan = { switched: [], manual: [] };
  for (const [script, { stock, ours }] of Object.entries(SCRIPTS)) {
    const current = scripts[script];
    if (current === ours) continue;
    if (current === undefined || current.trim() === stock) {
      scripts[script] = ours;
      plan.switched.push(script);
    } else plan.manual.push({ script, current, wanted: ours });
  }
  return plan;
}

/**
 * The app's name for its mails, authenticator apps and API reference (the core's `appName`), from
 * package.json's name: "my-app" → "My app", "@acme/shop_front" → "Shop front".
 */
export function appNameOf(packageName: unknown): string {
  const base = typeof packageName === "string" ? packageName.replace(/^@[^/]*\//, "") : "";
  const words = base
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .join(" ");
  return words === "" ? "My app" : `${words[0]!.toUpperCase()}${words.slice(1)}`;
}

/** A line for the app's .env: a value to set, or, with a `note`, a key written commented out under it. */
interface EnvEntry {
  key: string;
  value: string;
  note?: string;
}

export interface EnvChange {
  /** Keys written with their value. */
  added: string[];
  /** Keys written commented out, with the line that says when to set them. */
  commented: string[];
}

/**
 * Appends the entries whose key .env lacks, set or commented out (`# KEY=…` counts as present, so a
 * second init writes nothing); what is there already, an existing secret first of all, is kept.
 */
export async function addEnvEntries(dir: string, entries: EnvEntry[], dryRun: boolean): Promise<EnvChange> {
  const path = join(dir, ".env");
  const text = existsSync(path) ? await readFile(path, "utf8") : "";
  const present = new Set(text.split("\n").map((line) => /^\s*#?\s*([\w.-]+)\s*=/.exec(line)?.[1]));
  const missing = entries.filter((entry) => !present.has(entry.key));
  if (!dryRun && missing.length > 0) {
    const prefix = text === "" || text.endsWith("\n") ? text : `${text}\n`;
    const lines = missing.map(({ key, value, note }) =>
      note === undefined ? `${key}=${value}` : `# ${note}\n# ${key}=${value}`,
    );
    // The secret is in it: readable by the owner only.
    await writeFile(path, `${prefix}${lines.join("\n")}\n`, { mode: 0o600 });
  }
  return {
    added: missing.filter((entry) => entry.note === undefined).map((entry) => entry.key),
    commented: missing.filter((entry) => entry.note !== undefined).map((entry) => entry.key),
  };
}
