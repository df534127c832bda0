import de from "../locales/de.json";
import en from "../locales/en.json";
import es from "../locales/es.json";
import fr from "../locales/fr.json";
import pl from "../locales/pl.json";
import ru from "../locales/ru.json";
import tr from "../locales/tr.json";
import uk from "../locales/uk.json";
import { readCookie } from "./cookies.server";
import {
  createTranslator,
  fromTesseraLanguage,
  isLanguageCode,
  type LanguageCode,
  type Messages,
  type Translate,
} from "./i18n";

const MESSAGES: Record<LanguageCode, Messages> = { en, ru, uk, es, de, pl, fr, tr };

const LANGUAGE_COOKIE = "lang";

/**
 * The page language: the signed-in user's `language`, else the `lang` cookie the switcher sets, else
 * the first supported language of Accept-Language, else English.
 */
export function resolveLanguage(request: Request, userLanguage?: string | null): LanguageCode {
  return fromTesseraLanguage(userLanguage) ?? requestedLanguage(request) ?? "en";
}

/**
 * The language a signed-out visitor asked for: the `lang` cookie, else the first supported language
 * of Accept-Language; null when neither names one of the eight (no English by default: a user
 * created from this request then gets no `language`, and mails follow the app's setting).
 */
export function requestedLanguage(request: Request): LanguageCode | null {
  const fromCookie = readCookie(request, LANGUAGE_COOKIE);
  if (isLanguageCode(fromCookie)) return fromCookie;
  return fromAcceptLanguage(request.headers.get("accept-language"));
}

export function translatorFor(lang: LanguageCode): Translate {
  return createTranslator(lang, MESSAGES[lang], MESSAGES.en);
}

export function languageCookie(lang: LanguageCode): string {
  return `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

function fromAcceptLanguage(header: string | null): LanguageCode | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { base: tag.toLowerCase().split("-")[0], q: Number.isNaN(q) ? 0 : q, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.base).find(isLanguageCode) ?? null;
}
