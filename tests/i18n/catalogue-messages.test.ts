import {
  catalogueMessage,
  catalogueMessages,
  LANGUAGE_TAGS,
  LANGUAGES,
  languageFromTag,
} from "@tessera/auth-core/i18n";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, type ErrorCode } from "../../packages/auth-core/src/errors/catalogue.ts";

/**
 * Every catalogue message in the eight languages, for UIs; the API keeps
 * answering the English catalogue message. Read through the package entry a UI imports.
 */
const CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** `{id}`-style placeholders, sorted. */
function placeholders(message: string): string[] {
  return [...message.matchAll(/\{\w+\}/g)].map((match) => match[0]).sort();
}

describe("catalogue messages in every language", () => {
  it("English is the catalogue, message for message", () => {
    expect(catalogueMessages.ENG).toEqual(
      Object.fromEntries(CODES.map((code) => [code, ERROR_CATALOGUE[code].message])),
    );
  });

  for (const language of LANGUAGES) {
    it(`${language} has every code, none empty, with English's placeholders`, () => {
      const messages = catalogueMessages[language];
      expect(Object.keys(messages).sort()).toEqual([...CODES].sort());
      for (const code of CODES) {
        const message = messages[code];
        expect(message?.trim(), code).toBeTruthy();
        expect(message, `${code} has no stray spaces`).toBe(message?.trim());
        expect(placeholders(message), code).toEqual(placeholders(ERROR_CATALOGUE[code].message));
      }
    });
  }

  it("every translation is one: no message is left in English", () => {
    for (const language of LANGUAGES.filter((language) => language !== "ENG")) {
      const untranslated = CODES.filter(
        (code) => catalogueMessages[language][code] === ERROR_CATALOGUE[code].message,
      );
      expect(untranslated, language).toEqual([]);
    }
  });

  it("catalogueMessage answers a known code in the language, and null for an unknown or inherited one", () => {
    expect(catalogueMessage("INVALID_EMAIL_OR_PASSWORD", "ENG")).toBe("Invalid email or password");
    expect(catalogueMessage("INVALID_EMAIL_OR_PASSWORD", "GERMAN")).toBe(
      "E-Mail-Adresse oder Passwort ist falsch",
    );
    expect(catalogueMessage("PROVIDER_NOT_SUPPORTED", "POL", { id: "github" })).toBe(
      "Dostawca github nie jest obsługiwany",
    );
    expect(catalogueMessage("PROVIDER_NOT_SUPPORTED", "ENG")).toBe("Provider {id} is not supported");
    expect(catalogueMessage("SOMETHING_NEWER", "RUS")).toBeNull();
    expect(catalogueMessage("constructor", "RUS")).toBeNull();
    expect(catalogueMessage("__proto__", "FRA")).toBeNull();
  });

  it("languageFromTag reads the eight codes and BCP 47 tags by their primary subtag", () => {
    expect(languageFromTag("UKR")).toBe("UKR");
    expect(languageFromTag("uk")).toBe("UKR");
    expect(languageFromTag("de-AT")).toBe("GERMAN");
    expect(languageFromTag(" pt-BR ")).toBeNull();
    expect(languageFromTag("")).toBeNull();
    expect(LANGUAGES.map((language) => languageFromTag(LANGUAGE_TAGS[language]))).toEqual([...LANGUAGES]);
  });
});
