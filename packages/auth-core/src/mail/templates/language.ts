/** The languages of user-facing text: docs/decisions.md's enumeration, ENG by default (docs/decisions.md, "Languages"). */
export const LANGUAGES = ["ENG", "RUS", "UKR", "SPA", "GERMAN", "POL", "FRA", "TURKEY"] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "ENG";
