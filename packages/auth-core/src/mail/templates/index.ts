import type { MailKind } from "../mailer.ts";
import { deTemplates } from "./de.ts";
import { enTemplates } from "./en.ts";
import { esTemplates } from "./es.ts";
import { frTemplates } from "./fr.ts";
import type { Language } from "./language.ts";
import { renderMailContent } from "./layout.ts";
import { plTemplates } from "./pl.ts";
import { ruTemplates } from "./ru.ts";
import { trTemplates } from "./tr.ts";
import type { MailDataByKind, MailTemplates, RenderedMail } from "./types.ts";
import { ukTemplates } from "./uk.ts";

/**
 * Every language's templates; the type makes a language without them a compile error.
 * @internal Exported for templates.test.ts.
 */
export const MAIL_TEMPLATES: Readonly<Record<Language, MailTemplates>> = {
  ENG: enTemplates,
  RUS: ruTemplates,
  UKR: ukTemplates,
  SPA: esTemplates,
  GERMAN: deTemplates,
  POL: plTemplates,
  FRA: frTemplates,
  TURKEY: trTemplates,
};

// A Map rather than the object above so that a stray value read from storage ("constructor",
// "__proto__") cannot resolve to something inherited.
const templatesByLanguage: ReadonlyMap<string, MailTemplates> = new Map(Object.entries(MAIL_TEMPLATES));

/**
 * Renders one mail in the user's language. An unknown language, or none at all (`null`), falls back
 * to English, so a stray stored value never breaks sending.
 */
export function renderMail<K extends MailKind>(
  kind: K,
  language: Language | null,
  data: MailDataByKind[K],
): RenderedMail {
  const templates = (language !== null && templatesByLanguage.get(language)) || enTemplates;
  return renderMailContent(templates.kinds[kind](data), templates.htmlLang);
}
