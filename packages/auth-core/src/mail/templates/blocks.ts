import type { MailBlock, PluralForms } from "./types.ts";

// The building blocks every language's templates share; layout.ts escapes and renders them.

/** The salutation; the HTML preheader (inbox preview) skips it for the first paragraph that says something. */
export function greeting(text: string): MailBlock {
  return { type: "greeting", text };
}

export function paragraph(text: string): MailBlock {
  return { type: "paragraph", text };
}

export function link(label: string, url: string): MailBlock {
  return { type: "link", label, url };
}

export function code(value: string): MailBlock {
  return { type: "code", code: value };
}

/** A name worth greeting with: trimmed, and undefined when nothing is left. */
export function greetingName(name: string | undefined): string | undefined {
  const trimmed = name?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The form of a counted phrase that `Intl.PluralRules(lang)` selects for `count` (Russian, Ukrainian
 * and Polish tell one, few, many and fractions apart), with `#` replaced by the number written the
 * language's way (a decimal comma in most of them; no grouping, so a count never wraps mid-number).
 * A category missing from `forms` falls back to `other`; templates.test.ts checks none is missing.
 */
export function countPhrase(lang: string, count: number, forms: PluralForms): string {
  const form = forms[new Intl.PluralRules(lang).select(count)] ?? forms.other;
  const number = new Intl.NumberFormat(lang, { useGrouping: false, maximumFractionDigits: 2 }).format(count);
  return form.replaceAll("#", number);
}
