/**
 * `@tessera/auth-core/i18n`: the languages and the catalogue messages in each of them, for UIs.
 * Pure data with no server import, so a browser bundle can take it (tests/core/layering.test.ts).
 * The API itself always answers the English catalogue message (docs/decisions/, "Languages").
 */
import type { ErrorCode } from "../errors/catalogue.ts";
import { type Language, languageOf } from "./languages.ts";
import { deMessages } from "./messages/de.ts";
import { enMessages } from "./messages/en.ts";
import { esMessages } from "./messages/es.ts";
import { frMessages } from "./messages/fr.ts";
import { plMessages } from "./messages/pl.ts";
import { ruMessages } from "./messages/ru.ts";
import { trMessages } from "./messages/tr.ts";
import { ukMessages } from "./messages/uk.ts";

export type { ErrorCode } from "../errors/catalogue.ts";
export { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, type Language, languageOf } from "./languages.ts";

/**
 * Every catalogue message in every language, keyed by code. `{id}`-style placeholders are the
 * catalogue's own (PROVIDER_NOT_SUPPORTED) and appear in every language.
 */
export const catalogueMessages: Readonly<Record<Language, Readonly<Record<ErrorCode, string>>>> = {
  ENG: enMessages,
  RUS: ruMessages,
  UKR: ukMessages,
  SPA: esMessages,
  GERMAN: deMessages,
  POL: plMessages,
  FRA: frMessages,
  TURKEY: trMessages,
};

/**
 * The message for a code an API answered, in `language`, with `{name}` placeholders filled from
 * `values` (PROVIDER_NOT_SUPPORTED's `{id}`); null for a code this version does not know (a newer
 * server), so the UI can show the message the API sent instead.
 */
export function catalogueMessage(
  code: string,
  language: Language,
  values: Readonly<Record<string, string>> = {},
): string | null {
  const messages: Readonly<Record<string, string>> = catalogueMessages[language];
  if (!Object.hasOwn(messages, code)) return null;
  return (messages[code] ?? "").replace(/\{(\w+)\}/g, (token, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? token) : token,
  );
}

/**
 * The language of a BCP 47 tag ("pt-BR", "uk", "de-AT" → by its primary subtag), or of one of the
 * eight codes; null when it is none of them — for a cookie or an Accept-Language entry.
 */
export function languageFromTag(tag: string): Language | null {
  // Lenient where a header or cookie is: spaces around it, `_` for `-` (de_AT); then languageOf.
  return languageOf(tag.trim().replace(/_/g, "-"));
}
