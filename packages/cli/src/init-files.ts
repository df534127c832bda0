import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { LANGUAGE_TAGS, type Language } from "@tessera/auth-core/i18n";

export const FEATURES = ["organization", "admin", "two-factor", "passkey", "api-key"] as const;
type Feature = (typeof FEATURES)[number];

/**
 * The files of templates/auth/ that belong to one feature: written only when it is chosen. Every
 * other file there is written always. A line of another file that ends in `// feature: <name>` (the
 * account page's link to a feature's page) is kept only with that feature too.
 */
const FEATURE_FILES: Readonly<Record<Feature, readonly string[]>> = {
  organization: [
    "app/routes/organizations._index.tsx",
    "app/routes/organizations.$slug.tsx",
    "app/routes/accept-invitation.$id.tsx",
  ],
  "two-factor": ["app/routes/two-factor.tsx", "app/routes/account_.two-factor.tsx"],
  passkey: ["app/routes/account_.passkeys.tsx", "app/components/passkeys.tsx"],
  "api-key": ["app/routes/account_.api-keys.tsx"],
  admin: [],
};

const FEATURE_LINE = /\s*\/\/ feature: ([\w-]+)$/;

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** `text` without the lines of features not in `features` (their `// feature:` comment ends them). */
function keepChosenLines(text: string, features: readonly string[]): string {
  if (!text.includes("// feature: ")) return text;
  return text
    .split("\n")
    .filter((line) => {
      const feature = FEATURE_LINE.exec(line)?.[1];
      return feature === undefined || features.includes(feature);
    })
    .join("\n");
}

/**
 * What init writes from templates/ for the chosen features and language: templates/auth/'s files
 * (path → content) less other features' pages and lines, and `app/strings.ts`, the pages' words in
 * the language (templates/strings/<tag>.ts).
 */
export async function planAuthFiles(
  templates: string,
  features: readonly string[],
  language: Language,
): Promise<Map<string, string>> {
  const skipped = new Set(
    FEATURES.filter((feature) => !features.includes(feature)).flatMap((feature) => FEATURE_FILES[feature]),
  );
  const auth = join(templates, "auth");
  const planned = new Map<string, string>();
  for (const file of (await listFiles(auth)).sort()) {
    if (skipped.has(file)) continue;
    planned.set(file, keepChosenLines(await readFile(join(auth, file), "utf8"), features));
  }
  const tag = LANGUAGE_TAGS[language];
  planned.set("app/strings.ts", await readFile(join(templates, "strings", `${tag}.ts`), "utf8"));
  return planned;
}
