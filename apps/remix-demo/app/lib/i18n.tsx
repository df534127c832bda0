/**
 * The app's translations: i18next (for `{{name}}` interpolation and plurals through Intl.PluralRules)
 * behind a React context. One JSON file per language in app/locales, keys nested by screen; a key
 * missing or empty in a language falls back to English.
 */
import i18next, { type TFunction } from "i18next";
import { createContext, type ReactNode, useContext } from "react";

export const LANGUAGES = [
  { code: "en", tessera: "ENG", label: "English" },
  { code: "ru", tessera: "RUS", label: "Русский" },
  { code: "uk", tessera: "UKR", label: "Українська" },
  { code: "es", tessera: "SPA", label: "Español" },
  { code: "de", tessera: "GERMAN", label: "Deutsch" },
  { code: "pl", tessera: "POL", label: "Polski" },
  { code: "fr", tessera: "FRA", label: "Français" },
  { code: "tr", tessera: "TURKEY", label: "Türkçe" },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]["code"];
export type TesseraLanguage = (typeof LANGUAGES)[number]["tessera"];
export type Messages = Record<string, unknown>;

export function isLanguageCode(value: unknown): value is LanguageCode {
  return LANGUAGES.some((language) => language.code === value);
}

export function fromTesseraLanguage(value: string | undefined | null): LanguageCode | null {
  return LANGUAGES.find((language) => language.tessera === value)?.code ?? null;
}

export function toTesseraLanguage(code: LanguageCode): TesseraLanguage {
  return LANGUAGES.find((language) => language.code === code)!.tessera;
}

export type Translate = TFunction;

/** A translator for one language, synchronously ready; `messages` for `lang`, `english` the fallback. */
export function createTranslator(lang: LanguageCode, messages: Messages, english: Messages): Translate {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: "en",
    resources: { en: { translation: english }, [lang]: { translation: messages } },
    initAsync: false,
    returnEmptyString: false,
    returnNull: false,
    interpolation: { escapeValue: false },
    // i18next prints an advertisement on its first init (outside production): noise in the demo's log.
    showSupportNotice: false,
  });
  return instance.t;
}

interface I18nValue {
  lang: LanguageCode;
  t: Translate;
  /** Client only: loads another language's messages and re-renders; a no-op on the server. */
  switchTo?: (lang: LanguageCode) => Promise<void>;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ value, children }: { value: I18nValue; children: ReactNode }) {
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useT(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useT outside I18nProvider");
  return value;
}
