import { catalogueMessages, LANGUAGE_TAGS, LANGUAGES } from "@tessera/auth-core/i18n";
import { describe, expect, it } from "vitest";
import { flatten, hasLocale, readLocale } from "./locale-files.ts";

/**
 * One way of addressing the reader per language, in the remix-demo app's strings and the core's
 * catalogue alike (docs/decisions/0016-languages.md "Languages"): German Sie, French vous, Russian вы, Ukrainian
 * ви, Turkish siz; Spanish tú and Polish ty (what their strings already used throughout). A string
 * of the other register is found by words only that register has: pronouns and possessives, and
 * German's du-imperatives at the start of a sentence. And one word per language for a slug: the
 * form label's.
 */
const word = (words: string) => new RegExp(`(?<![\\p{L}'’])(${words})(?![\\p{L}])`, "u");

const OTHER_REGISTER: Record<string, RegExp[]> = {
  de: [
    word("du|Du|dich|Dich|dir|Dir|dein|deine|deinen|deinem|deiner|deines|Dein|Deine|Deinen|Deinem|Deiner"),
    /(^|[.:!?]\s+)(gib|wähle|prüfe|melde|versuche|öffne|lege|mache|bestätige|beginne|verwende|nutze|setze|trage)\s/iu,
  ],
  fr: [word("tu|toi|ton|tes|Tu|Ton|Tes")],
  es: [
    word("usted|ustedes|Usted|Ustedes"),
    /(^|[.:!?]\s+)(Introduzca|Inicie|Intente|Escriba|Elija|Vuelva)\s/u,
  ],
  pl: [word("Pan|Pani|Państwo|Państwa|Pana|Panu")],
  ru: [word("ты|Ты|тебя|тебе|тобой|твой|твоя|твоё|твои|твоего|твоей|твоим|твоих|твою|Твой|Твоя|Твоё|Твои")],
  uk: [word("ти|Ти|тебе|тобі|тобою|твій|твоя|твоє|твої|твого|твоєї|твоїм|твоїх|твою|Твій|Твоя|Твоє|Твої")],
  tr: [word("sen|Sen|senin|Senin|seni|sana|Sana")],
};

/** The slug's name in each language: the one the form's label uses. */
const SLUG_TERM: Record<string, RegExp> = {
  en: /slug/i,
  de: /Kürzel/,
  fr: /identifiant/i,
  es: /identificador/i,
  pl: /skrócon/i,
  ru: /коротк/i,
  uk: /коротк/i,
  tr: /kısa ad/i,
};
const SLUG_KEYS = [
  "organizations.fields.slug",
  "organizations.slugAvailable",
  "validation.CONFIRM_SLUG",
  "validation.SLUG_REQUIRED",
  "problems.ORGANIZATION_ALREADY_EXISTS",
  "problems.ORGANIZATION_SLUG_TAKEN",
  "errors.ORGANIZATION_SLUG_TAKEN",
];

describe.skipIf(!hasLocale("en"))("one way of addressing the reader per language", () => {
  for (const language of LANGUAGES) {
    const tag = LANGUAGE_TAGS[language];
    it(`${tag}: no string of the app or the core's catalogue uses the other register`, () => {
      const app = [...flatten(readLocale(tag)).entries()].map(([key, text]) => [`app ${key}`, String(text)]);
      const core = Object.entries(catalogueMessages[language]).map(([code, text]) => [`core ${code}`, text]);
      const mixed = [...app, ...core].filter(([, text]) =>
        (OTHER_REGISTER[tag] ?? []).some((pattern) => pattern.test(text as string)),
      );
      expect(mixed).toEqual([]);
    });

    it(`${tag}: the slug has one name`, () => {
      const strings = flatten(readLocale(tag));
      const term = SLUG_TERM[tag] as RegExp;
      const others = SLUG_KEYS.map((key) => [key, String(strings.get(key))]).filter(
        ([, text]) => !term.test(text as string),
      );
      expect(others).toEqual([]);
    });
  }
});
