/**
 * The remix-demo app's i18next resources (apps/remix-demo/app/locales/<tag>.json), read as flat
 * `a.b.c → string` maps; shared by locales.test.ts and sync-locales.ts. Plural keys follow i18next:
 * `<base>_<category>` with the categories of `Intl.PluralRules(tag)`.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const LOCALES_DIR = fileURLToPath(new URL("../../apps/remix-demo/app/locales/", import.meta.url));

const PLURAL_CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;
const PLURAL_SUFFIX = new RegExp(`_(${PLURAL_CATEGORIES.join("|")})$`);

export type Tree = { [key: string]: string | Tree };

export function localePath(tag: string): string {
  return `${LOCALES_DIR}${tag}.json`;
}

export function hasLocale(tag: string): boolean {
  return existsSync(localePath(tag));
}

export function readLocale(tag: string): Tree {
  return JSON.parse(readFileSync(localePath(tag), "utf8")) as Tree;
}

/** Leaves by dotted path; a non-string leaf (number, array, null) is kept as is so a test can refuse it. */
export function flatten(tree: unknown, prefix = ""): Map<string, unknown> {
  const flat = new Map<string, unknown>();
  if (tree === null || typeof tree !== "object" || Array.isArray(tree)) return flat;
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [inner, leaf] of flatten(value, path)) flat.set(inner, leaf);
    } else flat.set(path, value);
  }
  return flat;
}

/** The plural base of a key (`a.caption_one` → `a.caption`), or null for a plain key. */
export function pluralBase(key: string): string | null {
  return PLURAL_SUFFIX.test(key) ? key.replace(PLURAL_SUFFIX, "") : null;
}

/** The plural categories a language needs, in CLDR order. */
export function pluralCategories(tag: string): string[] {
  const needed = new Intl.PluralRules(tag).resolvedOptions().pluralCategories as string[];
  return PLURAL_CATEGORIES.filter((category) => needed.includes(category));
}

/** The keys a language must have: English's plain keys, and each plural base with the language's own forms. */
export function expectedKeys(english: Map<string, unknown>, tag: string): string[] {
  const keys: string[] = [];
  const bases = new Set<string>();
  for (const key of english.keys()) {
    const base = pluralBase(key);
    // A `_one`-like suffix counts as a plural only when English has its `_other`.
    if (base !== null && english.has(`${base}_other`)) {
      if (bases.has(base)) continue;
      bases.add(base);
      for (const category of pluralCategories(tag)) keys.push(`${base}_${category}`);
    } else keys.push(key);
  }
  return keys;
}

/** `{{name}}` (i18next) and `{name}` (catalogue) placeholders, sorted, duplicates dropped. */
export function placeholders(text: string): string[] {
  return [
    ...new Set(
      [...text.matchAll(/\{\{\s*[\w.]+\s*\}\}|\{\w+\}/g)].map((match) => match[0].replace(/\s/g, "")),
    ),
  ].sort();
}

/** The English text a key of another language is compared with: a plural form with English's `_other`. */
export function englishCounterpart(english: Map<string, unknown>, key: string): unknown {
  const base = pluralBase(key);
  if (base !== null && english.has(`${base}_other`)) return english.get(`${base}_other`);
  return english.get(key);
}
