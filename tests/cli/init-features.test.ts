import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAction } from "../../packages/cli/src/commands/create.ts";
import { initAction, templatesDir } from "../../packages/cli/src/init-app.ts";
import { testRun } from "./run-context.ts";

/**
 * What `tessera create --features … --language …` writes: each chosen feature's pages and no other
 * feature's, the account page's links to those pages alone, and the pages' words in the language
 * (app/strings.ts from templates/strings/<tag>.ts).
 */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "tessera-init-features-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function run() {
  const context = testRun("unused");
  return { ...context, io: { ...context.io, cwd: root } };
}

/** Each feature's pages (and the account page's link to the first), as a user of the app finds them. */
const PAGES = {
  organization: [
    "app/routes/organizations._index.tsx",
    "app/routes/organizations.$slug.tsx",
    "app/routes/accept-invitation.$id.tsx",
  ],
  "two-factor": ["app/routes/account_.two-factor.tsx", "app/routes/two-factor.tsx"],
  passkey: ["app/routes/account_.passkeys.tsx", "app/components/passkeys.tsx"],
  "api-key": ["app/routes/account_.api-keys.tsx"],
} as const;
const LINKS = {
  organization: "/organizations",
  "two-factor": "/account/two-factor",
  passkey: "/account/passkeys",
  "api-key": "/account/api-keys",
};
const ALWAYS = [
  "app/auth.server.ts",
  "app/strings.ts",
  "app/routes/account.tsx",
  "app/routes/sign-in.tsx",
  "app/routes/sign-up.tsx",
  "app/routes/forgot-password.tsx",
  "app/routes/reset-password.tsx",
  "app/routes/verify-email.tsx",
];

type Feature = keyof typeof PAGES;
/** Page titles a language writes as English does ("Passkeys" is the German word too). */
const LOANWORDS: Record<string, string[]> = { de: ["Passkeys"] };

describe("tessera create --features", () => {
  it.each([
    [undefined, ["organization", "two-factor", "passkey", "api-key"]],
    ["organization,admin,two-factor,api-key", ["organization", "two-factor", "api-key"]],
    ["passkey", ["passkey"]],
    ["api-key", ["api-key"]],
    ["organization,two-factor", ["organization", "two-factor"]],
    ["", []],
  ] as [string | undefined, Feature[]][])(
    "--features '%s' writes those features' pages and no others",
    async (features, chosen) => {
      const name = `app-${chosen.join("-") || "none"}`;
      const result = await createAction(run(), name, { yes: true, features });
      const app = join(root, name);
      const written = result.files.map((file) => file.path);
      for (const path of ALWAYS) expect(written).toContain(path);
      const account = await readFile(join(app, "app/routes/account.tsx"), "utf8");
      for (const feature of Object.keys(PAGES) as Feature[]) {
        const isChosen = chosen.includes(feature);
        for (const path of PAGES[feature]) {
          expect(written.includes(path), `${path} with --features '${features}'`).toBe(isChosen);
          expect(existsSync(join(app, path))).toBe(isChosen);
        }
        // The account page links to the pages written, and to no page that is not there.
        expect(account.includes(`to: "${LINKS[feature]}"`), `link to ${LINKS[feature]}`).toBe(isChosen);
      }
      const marked = [...account.matchAll(/\/\/ feature: ([\w-]+)$/gm)].map((match) => match[1]);
      expect(marked.sort()).toEqual([...chosen].sort());
    },
  );
});

describe("tessera create --language", () => {
  it("--language fr writes the pages' words in French, and the core's messages follow them", async () => {
    await createAction(run(), "boutique", { yes: true, language: "fr", features: "organization" });
    const app = join(root, "boutique");
    const strings = await readFile(join(app, "app/strings.ts"), "utf8");
    expect(strings).toBe(await readFile(join(templatesDir(), "strings/fr.ts"), "utf8"));
    expect(strings).toContain('export const LANG = "fr";');
    expect(strings).toContain('title: "Créer un compte"');
    expect(await readFile(join(app, "tessera.config.ts"), "utf8")).toContain('language: "FRA"');
    // Every page takes its words from app/strings.ts; the catalogue messages come in LANG.
    const authServer = await readFile(join(app, "app/auth.server.ts"), "utf8");
    expect(authServer).toContain("catalogueMessage(error.code, language)");

    // Another language later: strings.ts (not changed by the user) follows it.
    const again = await initAction(run(), "boutique", { yes: true, language: "de-AT" });
    expect(again.files).toContainEqual({ path: "app/strings.ts", action: "update" });
    expect(await readFile(join(app, "app/strings.ts"), "utf8")).toContain('export const LANG = "de";');
  });

  it("every language has the same words as English to translate, with the same placeholders", async () => {
    const dir = join(templatesDir(), "strings");
    const tags = (await readdir(dir)).map((file) => file.replace(/\.ts$/, "")).sort();
    expect(tags).toEqual(["de", "en", "es", "fr", "pl", "ru", "tr", "uk"]);
    const load = async (tag: string) =>
      (await import(join(dir, `${tag}.ts`))) as { LANG: string; strings: Record<string, unknown> };
    const english = await load("en");
    /** Each word's path with its kind: a sentence, or a function of N values. */
    const shapeOf = (value: unknown, path = ""): string[] =>
      typeof value === "object" && value !== null
        ? Object.entries(value).flatMap(([key, inner]) => shapeOf(inner, `${path}.${key}`))
        : [`${path}: ${typeof value === "function" ? `function/${value.length}` : typeof value}`];
    const wordsOf = (value: unknown): string[] =>
      typeof value === "object" && value !== null
        ? Object.values(value).flatMap(wordsOf)
        : [typeof value === "function" ? String(value("X", "Y")) : String(value)];
    for (const tag of tags) {
      const { LANG, strings } = await load(tag);
      expect(LANG).toBe(tag);
      expect(shapeOf(strings), tag).toEqual(shapeOf(english.strings));
      expect(
        wordsOf(strings).filter((word) => word.trim() === ""),
        tag,
      ).toEqual([]);
      if (tag !== "en") {
        // Translated: the titles differ from English (a word left in English would show), but for
        // the loanwords a language uses itself.
        const titles = (table: Record<string, unknown>) =>
          Object.values(table).map((page) => (page as { title?: string }).title);
        expect(
          titles(strings).filter(
            (title, index) => title !== undefined && title === titles(english.strings)[index],
          ),
          tag,
        ).toEqual(LOANWORDS[tag] ?? []);
      }
    }
  });
});
