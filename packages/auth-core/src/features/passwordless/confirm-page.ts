import { LANGUAGE_TAGS, type Language } from "../../i18n/languages.ts";
import { escapeHtml } from "../../mail/escape-html.ts";

/**
 * The page the mailed link opens when the app has no `magicLink.confirmURL` (docs/passwordless.md
 * "Mail scanners"): a GET shows it and spends nothing; only its button's POST signs in. No script,
 * so it works wherever the mail is read.
 */
const TEXTS: Record<Language, { title: string; explain: string; button: string }> = {
  ENG: {
    title: "Sign in to {app}",
    explain: "Press the button to finish signing in. The link works once.",
    button: "Sign in",
  },
  RUS: {
    title: "Вход в {app}",
    explain: "Нажмите кнопку, чтобы завершить вход. Ссылка срабатывает один раз.",
    button: "Войти",
  },
  UKR: {
    title: "Вхід у {app}",
    explain: "Натисніть кнопку, щоб завершити вхід. Посилання спрацьовує один раз.",
    button: "Увійти",
  },
  SPA: {
    title: "Inicia sesión en {app}",
    explain: "Pulsa el botón para terminar de iniciar sesión. El enlace solo sirve una vez.",
    button: "Iniciar sesión",
  },
  GERMAN: {
    title: "Anmeldung bei {app}",
    explain:
      "Klicken Sie auf die Schaltfläche, um die Anmeldung abzuschließen. Der Link funktioniert nur einmal.",
    button: "Anmelden",
  },
  POL: {
    title: "Logowanie do {app}",
    explain: "Naciśnij przycisk, aby dokończyć logowanie. Link działa tylko raz.",
    button: "Zaloguj się",
  },
  FRA: {
    title: "Connexion à {app}",
    explain: "Appuyez sur le bouton pour terminer votre connexion. Le lien ne fonctionne qu’une fois.",
    button: "Se connecter",
  },
  TURKEY: {
    title: "{app} girişi",
    explain: "Girişi tamamlamak için düğmeye basın. Bağlantı yalnızca bir kez çalışır.",
    button: "Giriş yap",
  },
};

/** The form's fields: the token and the destinations the link carried (all echoed escaped). */
export function renderConfirmPage(
  language: Language,
  appName: string,
  action: string,
  fields: Record<string, string | undefined>,
): string {
  const text = TEXTS[language] ?? TEXTS.ENG;
  const title = escapeHtml(text.title.replace("{app}", appName));
  const inputs = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return `<!doctype html>
<html lang="${LANGUAGE_TAGS[language] ?? "en"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem">
<main><h1>${title}</h1><p>${escapeHtml(text.explain)}</p>
<form method="post" action="${escapeHtml(action)}">${inputs}<button type="submit" style="font-size: 1rem; padding: 0.6rem 1.2rem">${escapeHtml(text.button)}</button></form>
</main></body></html>`;
}
