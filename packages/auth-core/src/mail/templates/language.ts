/** The languages of user-facing text: SPEC §1's enumeration, ENG by default (DECISIONS.md, "Languages"). */
export const LANGUAGES = ["ENG", "RUS", "UKR", "SPA", "GERMAN", "POL", "FRA", "TURKEY"] as const;

export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = "ENG";
