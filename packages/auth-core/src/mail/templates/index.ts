import type { MailKind } from "../mailer.ts";
import { enTemplates } from "./en.ts";
import type { Language } from "./language.ts";
import { renderMailContent } from "./layout.ts";
import type { MailDataByKind, MailTemplates, RenderedMail } from "./types.ts";

// A Map rather than an object literal so that a stray value read from storage ("constructor",
// "__proto__") cannot resolve to something inherited. Languages without templates are simply absent.
const templatesByLanguage: ReadonlyMap<string, MailTemplates> = new Map<Language, MailTemplates>([
  ["ENG", enTemplates],
]);

/**
 * Renders one mail in the user's language. A language without templates yet, or none at all (`null`),
 * falls back to English, so adding a language never breaks sending.
 */
export function renderMail<K extends MailKind>(
  kind: K,
  language: Language | null,
  data: MailDataByKind[K],
): RenderedMail {
  const templates = (language !== null && templatesByLanguage.get(language)) || enTemplates;
  return renderMailContent(templates.kinds[kind](data), templates.htmlLang);
}
