/**
 * Rewrites the seven non-English locale files of apps/remix-demo in English's key order, with the
 * `errors` section's catalogue codes taken from @tessera/auth-core/i18n (so UI and core never
 * disagree on a message). Keys the file lacks stay absent: locales.test.ts names them.
 *
 *   pnpm exec tsx tests/i18n/sync-locales.ts
 */
import { writeFileSync } from "node:fs";
import { catalogueMessages, LANGUAGE_TAGS, LANGUAGES } from "../../packages/auth-core/src/i18n/index.ts";
import { expectedKeys, flatten, localePath, readLocale, type Tree } from "./locale-files.ts";

const english = flatten(readLocale("en"));

for (const language of LANGUAGES.filter((language) => language !== "ENG")) {
  const tag = LANGUAGE_TAGS[language];
  const current = flatten(readLocale(tag));
  const catalogue: Readonly<Record<string, string>> = catalogueMessages[language];
  const tree: Tree = {};
  for (const key of expectedKeys(english, tag)) {
    const code = key.startsWith("errors.") ? key.slice("errors.".length) : null;
    const value = code !== null && Object.hasOwn(catalogue, code) ? catalogue[code] : current.get(key);
    if (typeof value === "string") setPath(tree, key, value);
  }
  // Forms the language does not use are dropped; anything else English lacks is stale and goes too.
  const dropped = [...current.keys()].filter((key) => !hasPath(tree, key));
  writeFileSync(localePath(tag), `${JSON.stringify(tree, null, 2)}\n`);
  console.log(
    `${tag}: ${flatten(tree).size} keys written${dropped.length ? `; dropped ${dropped.join(", ")}` : ""}`,
  );
}

function setPath(tree: Tree, path: string, value: string): void {
  const parts = path.split(".");
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next === "object") node = next;
    else node = node[part] = {};
  }
  node[parts.at(-1)!] = value;
}

function hasPath(tree: Tree, path: string): boolean {
  let node: string | Tree | undefined = tree;
  for (const part of path.split(".")) {
    if (typeof node !== "object") return false;
    node = node[part];
  }
  return typeof node === "string";
}
