import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition, useCallback, useState } from "react";
import { hydrateRoot } from "react-dom/client";
import { createTranslator, I18nProvider, isLanguageCode, type LanguageCode, type Messages } from "./lib/i18n";
import en from "./locales/en.json";

// Only the page's language is fetched (English, the fallback, is in the bundle).
const bundles = import.meta.glob<{ default: Messages }>(["./locales/*.json", "!./locales/en.json"]);

async function loadMessages(lang: LanguageCode): Promise<Messages> {
  if (lang === "en") return en;
  const load = bundles[`./locales/${lang}.json`];
  return load ? (await load()).default : {};
}

function ClientI18n({ initial, messages }: { initial: LanguageCode; messages: Messages }) {
  const [state, setState] = useState(() => ({
    lang: initial,
    t: createTranslator(initial, messages, en),
  }));
  // The root loader's language can change without a document load (sign-in of a user with a language).
  const switchTo = useCallback(async (lang: LanguageCode) => {
    const next = await loadMessages(lang);
    setState({ lang, t: createTranslator(lang, next, en) });
  }, []);
  return (
    <I18nProvider value={{ ...state, switchTo }}>
      <RemixBrowser />
    </I18nProvider>
  );
}

const htmlLang = document.documentElement.lang;
const lang: LanguageCode = isLanguageCode(htmlLang) ? htmlLang : "en";
const messages = await loadMessages(lang);

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <ClientI18n initial={lang} messages={messages} />
    </StrictMode>,
  );
});
