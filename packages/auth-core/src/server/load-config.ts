import { access } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AuthOptions } from "../config/options.ts";
import { ServerConfigError } from "./env-config.ts";

export type ConfigOptions = Partial<AuthOptions>;

/**
 * Loads TESSERA_CONFIG: a module whose default export is `createAuth` options (hooks, mail hooks,
 * feature switches…), or a function returning them (sync or async). Relative paths are resolved
 * against `cwd`.
 */
export async function loadConfigModule(path: string, cwd: string): Promise<ConfigOptions> {
  const file = isAbsolute(path) ? path : resolve(cwd, path);
  try {
    await access(file);
  } catch {
    throw new ServerConfigError(`TESSERA_CONFIG: no such file ${file}`);
  }
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new ServerConfigError(`TESSERA_CONFIG: ${file} failed to load: ${describe(error)}`);
  }
  const exported = typeof loaded.default === "function" ? await loaded.default() : loaded.default;
  if (!isPlainObject(exported)) {
    throw new ServerConfigError(`TESSERA_CONFIG: ${file} must default-export an options object`);
  }
  return exported as ConfigOptions;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Object literals only: a Db, a Date, a mailer class instance or an array is a value, not a branch. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * `over` wins; plain objects merge key by key, everything else (arrays included) is replaced.
 * An `undefined` in `over` does not erase a value from `base`.
 */
export function deepMerge<T extends Record<string, unknown>>(base: T, over: Record<string, unknown>): T {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return merged as T;
}
