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
