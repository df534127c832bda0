import { describe, expect, it } from "vitest";
import { LANGUAGE_TAGS, LANGUAGES, type Language } from "../../i18n/languages.ts";
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
  "delete-account": [{ url, appName, expiresInHours: MARKERS.expiresInHours }],
  invitation: [{ url, organizationName, inviterName, role, appName }],
  "two-factor-otp": [{ code: MARKERS.code, appName, expiresInMinutes: MARKERS.expiresInMinutes }],
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
                block.type === "paragraph" ? block.text : block.type === "link" ? block.label : block.code;
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
