import { catalogueMessages, LANGUAGE_TAGS, LANGUAGES } from "@tessera/auth-core/i18n";
import { describe, expect, it } from "vitest";
import {
  englishCounterpart,
  expectedKeys,
  flatten,
  hasLocale,
  placeholders,
  pluralBase,
  pluralCategories,
  readLocale,
} from "./locale-files.ts";

/**
 * The remix-demo app's UI strings in the eight languages. Every key of
 * en.json is present and non-empty in every language; a plural key has every form
 * `Intl.PluralRules(lang)` selects (Russian, Ukrainian and Polish: one, few, many, other) and no
 * other; placeholders are English's; the `errors` section is the catalogue of
 * @tessera/auth-core/i18n (tests/i18n/sync-locales.ts writes it). Skipped while the app is absent.
 */
const ready = hasLocale("en");

describe.skipIf(!ready)("remix-demo locale files", () => {
  const english = ready ? flatten(readLocale("en")) : new Map<string, unknown>();

  it("English has strings only, and some plural keys with both English forms", () => {
    expect(
      [...english.entries()].filter(([, value]) => typeof value !== "string" || value.trim() === ""),
    ).toEqual([]);
    const bases = [...english.keys()].map(pluralBase).filter((base) => base !== null);
    for (const base of bases)
      expect(english.has(`${base}_one`) && english.has(`${base}_other`), base).toBe(true);
  });

  for (const language of LANGUAGES) {
    const tag = LANGUAGE_TAGS[language];

    describe(`${tag} (${language})`, () => {
      const messages = ready && hasLocale(tag) ? flatten(readLocale(tag)) : new Map<string, unknown>();
      const expected = ready ? expectedKeys(english, tag) : [];

      it("has every key of en.json, non-empty, plural keys with the forms of Intl.PluralRules", () => {
        expect(hasLocale(tag), `${tag}.json exists`).toBe(true);
        const missing = expected.filter((key) => {
          const value = messages.get(key);
          return typeof value !== "string" || value.trim() === "";
        });
        expect(missing).toEqual([]);
      });

      it("has no key English lacks, nor a plural form the language does not use", () => {
        const allowed = new Set(expected);
        expect([...messages.keys()].filter((key) => !allowed.has(key))).toEqual([]);
      });

      it("keeps English's placeholders in every string", () => {
        const differing = expected
          .filter((key) => typeof messages.get(key) === "string")
          .filter((key) => {
            const theirs = placeholders(String(englishCounterpart(english, key)));
            const ours = placeholders(String(messages.get(key)));
            return theirs.join() !== ours.join();
          })
          .map((key) => `${key}: ${String(messages.get(key))}`);
        expect(differing).toEqual([]);
      });

      it("shows each catalogue code with the message of @tessera/auth-core/i18n", () => {
        const catalogue = catalogueMessages[language];
        const differing = Object.entries(catalogue).filter(
          ([code, message]) => messages.get(`errors.${code}`) !== message,
        );
        expect(differing.map(([code]) => code)).toEqual([]);
      });

      if (language !== "ENG") {
        it("is a translation: its UI strings are not English's", () => {
          const uiKeys = expected.filter((key) => !key.startsWith("errors."));
          const same = uiKeys.filter((key) => messages.get(key) === englishCounterpart(english, key));
          // Words that are the same in both languages (a product name, "API", "OK") are rare: a
          // handful at most, never a copied file.
          expect(same.length, same.join(", ")).toBeLessThanOrEqual(Math.ceil(uiKeys.length * 0.05));
        });
      }
    });
  }

  it("the plural forms asked of each language are those Intl.PluralRules knows", () => {
    expect(pluralCategories("ru")).toEqual(["one", "few", "many", "other"]);
    expect(pluralCategories("pl")).toEqual(["one", "few", "many", "other"]);
    expect(pluralCategories("tr")).toEqual(["one", "other"]);
  });
});
