/**
 * The languages of user-facing text: docs/decisions/'s enumeration, ENG by default (docs/decisions/,
 * "Languages"). Pure data, safe in browser code.
 */
export const LANGUAGES = ["ENG", "RUS", "UKR", "SPA", "GERMAN", "POL", "FRA", "TURKEY"] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "ENG";

/** The BCP 47 tag of each language: `<html lang>`, `Intl.PluralRules`, i18next resource names. */
export const LANGUAGE_TAGS: Readonly<Record<Language, string>> = {
  ENG: "en",
  RUS: "ru",
  UKR: "uk",
  SPA: "es",
  GERMAN: "de",
  POL: "pl",
  FRA: "fr",
  TURKEY: "tr",
};

/**
 * A well-formed BCP 47 language tag (RFC 5646 §2.1, case-insensitive): a 2–3 letter language
 * subtag, then subtags of 1–8 letters or digits; at most 35 characters (RFC 5646 §4.4.1).
 */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The language a value names: one of the eight codes as is, or a BCP 47 tag whose primary subtag is
 * one of theirs (`de`, `de-AT`, `PT-br` is not: Portuguese) — null for anything else. The API's
 * language fields (contracts/schemas.ts) and the CLI's `--language` read values with it.
 */
export function languageOf(value: string): Language | null {
  if ((LANGUAGES as readonly string[]).includes(value)) return value as Language;
  if (value.length > 35 || !LANGUAGE_TAG.test(value)) return null;
  const primary = value.split("-")[0]!.toLowerCase();
  return LANGUAGES.find((code) => LANGUAGE_TAGS[code] === primary) ?? null;
}
