import { code, countPhrase, greeting, greetingName, link, paragraph } from "./blocks.ts";
import type { MailBlock, MailTemplates } from "./types.ts";

// Addressed with «Ty», capitalised as Polish letters do; sentences avoid the gendered past tense
// ("jeśli to nie Ty…") because the reader's gender is unknown. Durations follow «przez» (accusative).
const plurals = {
  minutes: { one: "# minutę", few: "# minuty", many: "# minut", other: "# minuty" },
  hours: { one: "# godzinę", few: "# godziny", many: "# godzin", other: "# godziny" },
  revokedKeys: {
    one: "unieważniono # klucz API utworzony w zalogowanej sesji",
    few: "unieważniono # klucze API utworzone w zalogowanej sesji",
    many: "unieważniono # kluczy API utworzonych w zalogowanej sesji",
    other: "unieważniono # klucza API utworzonego w zalogowanej sesji",
  },
};

const count = (value: number, forms: keyof typeof plurals) => countPhrase("pl", value, plurals[forms]);

export const plTemplates: MailTemplates = {
  htmlLang: "pl",
  plurals,
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `Potwierdź swój adres e-mail w ${appName}`,
      blocks: [
        greet(name),
        paragraph(`Potwierdź swój adres e-mail, aby dokończyć zakładanie konta w ${appName}.`),
        link("Potwierdź adres e-mail", url),
        paragraph(
          `Jeśli konto w ${appName} nie zostało założone przez Ciebie, możesz zignorować tę wiadomość.`,
        ),
        signOff(appName),
      ],
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `Resetowanie hasła do konta w ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          `Otrzymaliśmy prośbę o zresetowanie hasła do Twojego konta w ${appName}. ` +
            "Otwórz poniższy link, aby ustawić nowe hasło.",
        ),
        link("Zresetuj hasło", url),
        paragraph(
          `Link jest ważny przez ${count(expiresInMinutes, "minutes")}. Jeśli prośba o reset nie pochodzi ` +
            "od Ciebie, możesz zignorować tę wiadomość: Twoje hasło się nie zmieni.",
        ),
        signOff(appName),
      ],
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `Potwierdź nowy adres e-mail w ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Otrzymaliśmy prośbę o zmianę adresu e-mail Twojego konta w ${appName} na ${newEmail}. ` +
            "Otwórz poniższy link, aby potwierdzić zmianę.",
        ),
        link("Potwierdź zmianę adresu e-mail", url),
        paragraph(
          "Jeśli ta prośba nie pochodzi od Ciebie, zignoruj tę wiadomość — Twój adres się nie zmieni.",
        ),
        signOff(appName),
      ],
    }),
    // Five days of failed deliveries disabled the endpoint (features/webhooks, docs/decisions/0020-webhooks.md).
    "webhook-endpoint-disabled": ({ endpoint, appName }) => ({
      subject: `Punkt końcowy webhooka w ${appName} został wyłączony`,
      blocks: [
        greet(undefined),
        paragraph(
          `Punkt końcowy webhooka w ${appName} został wyłączony: każde dostarczenie do ${endpoint} kończyło się błędem przez pięć dni.`,
        ),
        paragraph(
          "Gdy odbiorca znów zacznie odpowiadać, włącz punkt końcowy; pominięte zdarzenia można wysłać ponownie.",
        ),
        signOff(appName),
      ],
    }),
    "api-keys-revoked": ({ count: keys, appName }) => ({
      subject: `Klucze API Twojego konta w ${appName} zostały unieważnione`,
      blocks: [
        greet(undefined),
        paragraph(
          `Twoje konto w ${appName} zostało wylogowane na wszystkich urządzeniach, a wraz z tym ` +
            `${count(keys, "revokedKeys")}.`,
        ),
        paragraph(
          "Jeśli ich używasz, po zalogowaniu utwórz nowe klucze. Jeśli wylogowanie ze wszystkich urządzeń " +
            "nie pochodziło od Ciebie, zresetuj hasło i sprawdź swoje konto.",
        ),
        signOff(appName),
      ],
    }),
    "email-changed": ({ newEmail, appName }) => ({
      subject: `Adres e-mail Twojego konta w ${appName} został zmieniony`,
      blocks: [
        greet(undefined),
        paragraph(
          newEmail
            ? `Adres e-mail Twojego konta w ${appName} został zmieniony na ${newEmail}.`
            : `Adres e-mail Twojego konta w ${appName} został zmieniony na inny.`,
        ),
        paragraph(
          "Jeśli ta zmiana pochodzi od Ciebie, nie musisz nic robić. Jeśli nie, ktoś inny może mieć dostęp " +
            `do Twojego konta: jak najszybciej skontaktuj się z pomocą techniczną ${appName}.`,
        ),
        signOff(appName),
      ],
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `Potwierdź usunięcie konta w ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Otrzymaliśmy prośbę o usunięcie Twojego konta w ${appName}. Otwórz poniższy link, aby ją ` +
            "potwierdzić. Konto i jego dane zostaną trwale usunięte.",
        ),
        link("Usuń moje konto", url),
        paragraph(
          `Link jest ważny przez ${count(expiresInHours, "hours")}. Jeśli prośba o usunięcie konta nie ` +
            "pochodzi od Ciebie, zignoruj tę wiadomość i rozważ zmianę hasła.",
        ),
        signOff(appName),
      ],
    }),
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `Zaproszenie do organizacji w ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `${inviterName} zaprasza Cię do dołączenia do organizacji „${organizationName}” w ${appName} ` +
            `z rolą „${role}”.`,
        ),
        link("Zobacz zaproszenie", url),
        paragraph("Jeśli nie spodziewasz się tego zaproszenia, możesz zignorować tę wiadomość."),
        signOff(appName),
      ],
    }),
    "two-factor-otp": ({ code: otp, appName, expiresInMinutes }) => ({
      subject: `Twój kod logowania do ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(`Użyj tego kodu, aby dokończyć logowanie do ${appName}:`),
        code(otp),
        paragraph(
          `Kod jest ważny przez ${count(expiresInMinutes, "minutes")}. Jeśli to nie Ty próbujesz się ` +
            "zalogować, zmień hasło: ktoś inny może je znać.",
        ),
        signOff(appName),
      ],
    }),
    // One mail, both ways in (docs/passwordless.md): the link signs in where it is opened, the code
    // where the sign-in was asked for. Either part is left out when its endpoint is off.
    "sign-in-link": ({ url, code: otp, appName, expiresInMinutes }) => ({
      subject: `Logowanie do ${appName}`,
      blocks: [
        greet(undefined),
        ...(url
          ? [paragraph(`Otwórz poniższy link, aby zalogować się do ${appName}.`), link("Zaloguj się", url)]
          : []),
        ...(otp
          ? [
              paragraph(
                url
                  ? "Możesz też wpisać ten kod na urządzeniu, na którym rozpoczęto logowanie:"
                  : `Użyj tego kodu, aby zalogować się do ${appName}:`,
              ),
              code(otp),
            ]
          : []),
        paragraph(
          `Logowanie jest ważne przez ${count(expiresInMinutes, "minutes")} i działa tylko raz. Jeśli nie prosisz o logowanie, zignoruj tę wiadomość.`,
        ),
        signOff(appName),
      ],
    }),
    "email-otp": ({ code: otp, purpose, appName, expiresInMinutes }) =>
      purpose === "email-verification"
        ? {
            subject: `Twój kod weryfikacyjny do ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Użyj tego kodu, aby potwierdzić swój adres e-mail w ${appName}:`),
              code(otp),
              paragraph(
                `Kod jest ważny przez ${count(expiresInMinutes, "minutes")}. Jeśli konto w ${appName} nie zostało założone przez Ciebie, możesz zignorować tę wiadomość.`,
              ),
              signOff(appName),
            ],
          }
        : {
            subject: `Twój kod do zresetowania hasła w ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Użyj tego kodu, aby ustawić nowe hasło do swojego konta w ${appName}:`),
              code(otp),
              paragraph(
                `Kod jest ważny przez ${count(expiresInMinutes, "minutes")}. Jeśli prośba o reset nie pochodzi od Ciebie, zignoruj tę wiadomość: hasło pozostanie bez zmian.`,
              ),
              signOff(appName),
            ],
          },
  },
};

function greet(name: string | undefined): MailBlock {
  const shown = greetingName(name);
  return greeting(shown ? `Dzień dobry, ${shown}!` : "Dzień dobry!");
}

function signOff(appName: string): MailBlock {
  return paragraph(`— ${appName}`);
}
