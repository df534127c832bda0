import { describe, expect, it } from "vitest";
import { LANGUAGE_TAGS, LANGUAGES, type Language } from "../../i18n/languages.ts";
import { escapeHtml } from "../escape-html.ts";
import { MAIL_KINDS, type MailKind } from "../mailer.ts";
import { MAIL_TEMPLATES, renderMail } from "./index.ts";
import type { MailDataByKind, RenderedMail } from "./types.ts";

/**
 * Every language has every mail, nothing empty, and no template of one
 * language drops a piece of data another shows. Each data field gets a marker that can only come
 * from that field; each kind is rendered in each language and the markers found are compared.
 */
const MARKERS = {
  url: "https://marker.test/MARK-url",
  name: "MARK-name",
  newEmail: "MARK-new-email@example.test",
  organizationName: "MARK-organization",
  inviterName: "MARK-inviter",
  role: "MARK-role",
  appName: "MARK-app",
  code: "918273",
  count: 4711,
  expiresInMinutes: 7919,
  expiresInHours: 6421,
} as const;

const { url, name, newEmail, organizationName, inviterName, role, appName } = MARKERS;

/** Each kind with its data, and again without each optional field (a template may branch on it). */
const CASES: { [K in MailKind]: MailDataByKind[K][] } = {
  "verify-email": [
    { url, name, appName },
    { url, appName },
  ],
  "reset-password": [
    { url, name, appName, expiresInMinutes: MARKERS.expiresInMinutes },
    { url, appName, expiresInMinutes: MARKERS.expiresInMinutes },
  ],
  "change-email": [{ url, newEmail, appName }],
  "email-changed": [{ newEmail, appName }, { appName }],
  "api-keys-revoked": [{ count: MARKERS.count, appName }],
  "webhook-endpoint-disabled": [{ endpoint: url, appName }],
  "delete-account": [{ url, appName, expiresInHours: MARKERS.expiresInHours }],
  invitation: [{ url, organizationName, inviterName, role, appName }],
  "two-factor-otp": [{ code: MARKERS.code, appName, expiresInMinutes: MARKERS.expiresInMinutes }],
  "sign-in-link": [
    { url, code: MARKERS.code, appName, expiresInMinutes: MARKERS.expiresInMinutes },
    { url, appName, expiresInMinutes: MARKERS.expiresInMinutes },
    { code: MARKERS.code, appName, expiresInMinutes: MARKERS.expiresInMinutes },
  ],
  "email-otp": [
    {
      code: MARKERS.code,
      purpose: "email-verification",
      appName,
      expiresInMinutes: MARKERS.expiresInMinutes,
    },
    { code: MARKERS.code, purpose: "forget-password", appName, expiresInMinutes: MARKERS.expiresInMinutes },
  ],
};

function render(kind: MailKind, language: Language, data: unknown): RenderedMail {
  return renderMail(kind, language, data as never);
}

function markersIn(text: string): string[] {
  return Object.entries(MARKERS)
    .filter(([, marker]) => text.includes(String(marker)))
    .map(([field]) => field)
    .sort();
}

describe("mail templates in every language", () => {
  it("has templates for every language and every kind", () => {
    expect(Object.keys(MAIL_TEMPLATES).sort()).toEqual([...LANGUAGES].sort());
    for (const language of LANGUAGES) {
      expect(Object.keys(MAIL_TEMPLATES[language].kinds).sort(), language).toEqual([...MAIL_KINDS].sort());
      expect(MAIL_TEMPLATES[language].htmlLang, language).toBe(LANGUAGE_TAGS[language]);
    }
  });

  for (const language of LANGUAGES) {
    describe(language, () => {
      for (const kind of MAIL_KINDS) {
        it(`renders ${kind} with the same data as English, and nothing empty`, () => {
          for (const data of CASES[kind]) {
            const mail = render(kind, language, data);
            const english = render(kind, "ENG", data);
            expect(markersIn(mail.subject), "subject").toEqual(markersIn(english.subject));
            expect(markersIn(mail.text), "text").toEqual(markersIn(english.text));
            expect(markersIn(mail.html), "html").toEqual(markersIn(english.html));
            expect(mail.html).toContain(`<html lang="${LANGUAGE_TAGS[language]}">`);
            for (const part of [mail.subject, mail.text, mail.html]) {
              expect(part.trim()).not.toBe("");
              expect(part).not.toMatch(/undefined|NaN|\bnull\b|\[object/);
            }
            // Every block has words of its own: no empty paragraph, label or line.
            const content = MAIL_TEMPLATES[language].kinds[kind](data as never);
            for (const block of content.blocks) {
              const words =
                block.type === "link" ? block.label : block.type === "code" ? block.code : block.text;
              expect(words.trim(), JSON.stringify(block)).not.toBe("");
            }
            expect(content.blocks.map((block) => block.type)).toEqual(
              MAIL_TEMPLATES.ENG.kinds[kind](data as never).blocks.map((block) => block.type),
            );
            if (language !== "ENG")
              expect(mail.text, "a translation, not the English text").not.toBe(english.text);
          }
        });
      }

      it("has every plural form Intl.PluralRules needs for each counted phrase", () => {
        const templates = MAIL_TEMPLATES[language];
        const needed = new Intl.PluralRules(templates.htmlLang).resolvedOptions().pluralCategories;
        expect(Object.keys(templates.plurals).length).toBeGreaterThan(0);
        for (const [phrase, forms] of Object.entries(templates.plurals)) {
          for (const category of needed) {
            const form = forms[category];
            expect(form?.trim(), `${phrase}.${category}`).toBeTruthy();
            expect(form, `${phrase}.${category} shows the number`).toContain("#");
          }
        }
      });
    });
  }
});

/** The property names of every inline `style` attribute (the layout is ours and regular enough for a pattern). */
function styleProperties(html: string): string[] {
  return [...html.matchAll(/style="([^"]*)"/g)].flatMap(([, style]) =>
    (style ?? "").split(";").map((declaration) => declaration.split(":")[0]?.trim() ?? ""),
  );
}

// Shorthands the Word engine (Outlook 2007–2021 on Windows) drops or half-applies.
const SHORTHANDS = [
  "margin",
  "padding",
  "background",
  "font",
  "border",
  "border-top",
  "border-bottom",
  "inset",
];

describe("the HTML part is a table layout Outlook renders", () => {
  for (const language of LANGUAGES) {
    for (const kind of MAIL_KINDS) {
      it(`lays out ${kind} in ${language} with presentation tables and inline longhand styles`, () => {
        for (const data of CASES[kind]) {
          const { html } = render(kind, language, data);
          expect(html).toMatch(/^<!doctype html>\n<html lang="[a-z]{2}">\n<head><meta charset="utf-8">/);
          expect(html).toContain(`<html lang="${LANGUAGE_TAGS[language]}">`);
          // Nothing that needs a stylesheet, and no block layout Outlook would ignore.
          expect(html).not.toMatch(/<style|<link|class=|<div|display:\s*(flex|grid)|float:/i);
          const tables = html.match(/<table[^>]*>/g) ?? [];
          expect(tables.length).toBeGreaterThanOrEqual(2);
          for (const table of tables) expect(table).toContain('role="presentation"');
          expect(tables[0]).toContain('width="100%"');
          expect(html).toMatch(/<!--\[if mso\]><table [^>]*width="600"/);
          expect(html).toContain('style="width:100%;max-width:600px"');
          for (const property of styleProperties(html)) {
            expect(SHORTHANDS, `style property "${property}"`).not.toContain(property);
          }
          // The preheader is the first paragraph after the greeting, hidden, before the layout.
          const content = MAIL_TEMPLATES[language].kinds[kind](data as never);
          const firstParagraph = content.blocks.find((block) => block.type === "paragraph");
          expect(content.blocks[0]?.type).toBe("greeting");
          const preheader = html.match(
            /<body[^>]*>\n<span style="display:none;[^"]*mso-hide:all[^"]*">([^<]*)<\/span>/,
          );
          expect(preheader?.[1]).toBe(
            escapeHtml(firstParagraph?.type === "paragraph" ? firstParagraph.text : ""),
          );

          const links = [...html.matchAll(/<a [^>]*>/g)];
          const hasLink = "url" in (data as object);
          expect(links, "one link, the button").toHaveLength(hasLink ? 1 : 0);
          if (!hasLink) continue;
          // A bulletproof button: colour and padding on the cell, the link inside it styled inline, and
          // the same address as text on the row below.
          const button = html.match(
            /<td align="center" bgcolor="(#[0-9a-f]{6})" style="background-color:\1;[^"]*padding-top:\d+px;[^"]*"><a href="([^"]+)" target="_blank" style="[^"]*color:#ffffff[^"]*">([^<]+)<\/a><\/td><\/tr><\/table><\/td><\/tr>\n<tr><td style="[^"]*">([^<]+)<\/td><\/tr>/,
          );
          expect(button, "button cell followed by the plain link").not.toBeNull();
          expect(button?.[2]).toBe(escapeHtml(url));
          expect(button?.[4], "the plain link is the button's href").toBe(button?.[2]);
          expect(button?.[3]?.trim()).not.toBe("");
        }
      });
    }
  }
});

describe("counted phrases", () => {
  const minutes = (language: Language, value: number) =>
    render("reset-password", language, { url, appName, expiresInMinutes: value }).text;

  it("follow the Slavic one / few / many forms, and fractions", () => {
    expect(minutes("RUS", 1)).toContain("действует 1 минуту.");
    expect(minutes("RUS", 3)).toContain("действует 3 минуты.");
    expect(minutes("RUS", 5)).toContain("действует 5 минут.");
    expect(minutes("RUS", 21)).toContain("действует 21 минуту.");
    expect(minutes("RUS", 1.5)).toContain("действует 1,5 минуты.");
    expect(minutes("UKR", 22)).toContain("діє 22 хвилини.");
    expect(minutes("UKR", 11)).toContain("діє 11 хвилин.");
    expect(minutes("POL", 1)).toContain("przez 1 minutę.");
    expect(minutes("POL", 24)).toContain("przez 24 minuty.");
    expect(minutes("POL", 25)).toContain("przez 25 minut.");
    expect(minutes("POL", 12)).toContain("przez 12 minut.");
  });

  it("agree the verb with the number of revoked keys", () => {
    const keys = (language: Language, count: number) =>
      render("api-keys-revoked", language, { count, appName }).text;
    expect(keys("ENG", 1)).toContain("1 API key created from a signed-in session was revoked");
    expect(keys("ENG", 2)).toContain("2 API keys created from a signed-in session were revoked");
    expect(keys("RUS", 1)).toContain("был отозван 1 API-ключ, созданный");
    expect(keys("RUS", 2)).toContain("были отозваны 2 API-ключа, созданных");
    expect(keys("RUS", 5)).toContain("были отозваны 5 API-ключей, созданных");
    expect(keys("GERMAN", 1)).toContain("wurde 1 API-Schlüssel widerrufen, der");
    expect(keys("GERMAN", 3)).toContain("wurden 3 API-Schlüssel widerrufen, die");
    expect(keys("FRA", 1)).toContain("1 clé API créée depuis une session connectée a été révoquée");
    expect(keys("SPA", 4)).toContain("se han revocado 4 claves de API");
  });

  it("write fractions the language's way", () => {
    const hours = (language: Language) =>
      render("delete-account", language, { url, appName, expiresInHours: 0.5 }).text;
    expect(hours("ENG")).toContain("expires in 0.5 hours.");
    expect(hours("GERMAN")).toContain("ist 0,5 Stunden lang gültig.");
    expect(hours("FRA")).toContain("expire dans 0,5 heure.");
  });
});
