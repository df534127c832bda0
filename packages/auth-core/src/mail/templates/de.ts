import { code, countPhrase, greeting, greetingName, link, paragraph } from "./blocks.ts";
import type { MailBlock, MailTemplates } from "./types.ts";

// Addressed with «Sie»; the app's name follows «bei» instead of forming compounds («Ihr Konto bei
// Acme»), which reads right whatever the name is.
const plurals = {
  minutes: { one: "# Minute", other: "# Minuten" },
  hours: { one: "# Stunde", other: "# Stunden" },
  revokedKeys: {
    one: "wurde # API-Schlüssel widerrufen, der in einer angemeldeten Sitzung erstellt worden war",
    other: "wurden # API-Schlüssel widerrufen, die in einer angemeldeten Sitzung erstellt worden waren",
  },
};

const count = (value: number, forms: keyof typeof plurals) => countPhrase("de", value, plurals[forms]);

export const deTemplates: MailTemplates = {
  htmlLang: "de",
  plurals,
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `Bestätigen Sie Ihre E-Mail-Adresse für ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          "bitte bestätigen Sie Ihre E-Mail-Adresse, um die Einrichtung Ihres Kontos bei " +
            `${appName} abzuschließen.`,
        ),
        link("E-Mail-Adresse bestätigen", url),
        paragraph(`Wenn Sie kein Konto bei ${appName} erstellt haben, können Sie diese E-Mail ignorieren.`),
        signOff(appName),
      ],
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `Setzen Sie Ihr Passwort für ${appName} zurück`,
      blocks: [
        greet(name),
        paragraph(
          `wir haben eine Anfrage erhalten, das Passwort Ihres Kontos bei ${appName} zurückzusetzen. ` +
            "Öffnen Sie den folgenden Link, um ein neues Passwort festzulegen.",
        ),
        link("Passwort zurücksetzen", url),
        paragraph(
          `Der Link ist ${count(expiresInMinutes, "minutes")} lang gültig. Wenn Sie das Zurücksetzen ` +
            "nicht angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert.",
        ),
        signOff(appName),
      ],
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `Bestätigen Sie Ihre neue E-Mail-Adresse für ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `wir haben eine Anfrage erhalten, die E-Mail-Adresse Ihres Kontos bei ${appName} in ${newEmail} ` +
            "zu ändern. Öffnen Sie den folgenden Link, um die Änderung zu bestätigen.",
        ),
        link("Änderung der E-Mail-Adresse bestätigen", url),
        paragraph(
          "Wenn Sie diese Änderung nicht angefordert haben, ignorieren Sie diese E-Mail; Ihre Adresse " +
            "bleibt dann unverändert.",
        ),
        signOff(appName),
      ],
    }),
    // Five days of failed deliveries disabled the endpoint (features/webhooks, docs/decisions/0020-webhooks.md).
    "webhook-endpoint-disabled": ({ endpoint, appName }) => ({
      subject: `Ein Webhook-Endpunkt von ${appName} wurde deaktiviert`,
      blocks: [
        greet(undefined),
        paragraph(
          `Ein Webhook-Endpunkt von ${appName} wurde deaktiviert: Jede Zustellung an ${endpoint} ist fünf Tage lang fehlgeschlagen.`,
        ),
        paragraph(
          "Sobald der Empfänger wieder antwortet, aktivieren Sie den Endpunkt; verpasste Ereignisse können erneut gesendet werden.",
        ),
        signOff(appName),
      ],
    }),
    "api-keys-revoked": ({ count: keys, appName }) => ({
      subject: `Ihre API-Schlüssel für ${appName} wurden widerrufen`,
      blocks: [
        greet(undefined),
        paragraph(
          `Ihr Konto bei ${appName} wurde auf allen Geräten abgemeldet, und dabei ${count(keys, "revokedKeys")}.`,
        ),
        paragraph(
          "Wenn Sie diese Schlüssel verwenden, erstellen Sie nach der Anmeldung neue. Wenn Sie sich nicht " +
            "überall abgemeldet haben, setzen Sie Ihr Passwort zurück und überprüfen Sie Ihr Konto.",
        ),
        signOff(appName),
      ],
    }),
    "email-changed": ({ newEmail, appName }) => ({
      subject: `Ihre E-Mail-Adresse für ${appName} wurde geändert`,
      blocks: [
        greet(undefined),
        paragraph(
          newEmail
            ? `die E-Mail-Adresse Ihres Kontos bei ${appName} wurde in ${newEmail} geändert.`
            : `die E-Mail-Adresse Ihres Kontos bei ${appName} wurde in eine andere Adresse geändert.`,
        ),
        paragraph(
          "Wenn Sie diese Änderung vorgenommen haben, müssen Sie nichts tun. Andernfalls hat möglicherweise " +
            `jemand anderes Zugriff auf Ihr Konto: Wenden Sie sich bitte umgehend an den Support von ${appName}.`,
        ),
        signOff(appName),
      ],
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `Bestätigen Sie die Löschung Ihres Kontos bei ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `wir haben eine Anfrage erhalten, Ihr Konto bei ${appName} zu löschen. Öffnen Sie den folgenden ` +
            "Link, um dies zu bestätigen. Ihr Konto und seine Daten werden endgültig gelöscht.",
        ),
        link("Mein Konto löschen", url),
        paragraph(
          `Der Link ist ${count(expiresInHours, "hours")} lang gültig. Wenn Sie die Löschung Ihres Kontos ` +
            "nicht angefordert haben, ignorieren Sie diese E-Mail und ändern Sie am besten Ihr Passwort.",
        ),
        signOff(appName),
      ],
    }),
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `Sie wurden zu einer Organisation bei ${appName} eingeladen`,
      blocks: [
        greet(undefined),
        paragraph(
          `${inviterName} hat Sie eingeladen, der Organisation „${organizationName}“ bei ${appName} ` +
            `mit der Rolle „${role}“ beizutreten.`,
        ),
        link("Einladung ansehen", url),
        paragraph("Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren."),
        signOff(appName),
      ],
    }),
    "two-factor-otp": ({ code: otp, appName, expiresInMinutes }) => ({
      subject: `Ihr Anmeldecode für ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(`verwenden Sie diesen Code, um die Anmeldung bei ${appName} abzuschließen:`),
        code(otp),
        paragraph(
          `Der Code ist ${count(expiresInMinutes, "minutes")} lang gültig. Wenn Sie nicht versucht haben, ` +
            "sich anzumelden, ändern Sie Ihr Passwort: Möglicherweise kennt es jemand anderes.",
        ),
        signOff(appName),
      ],
    }),
    // One mail, both ways in (docs/passwordless.md): the link signs in where it is opened, the code
    // where the sign-in was asked for. Either part is left out when its endpoint is off.
    "sign-in-link": ({ url, code: otp, appName, expiresInMinutes }) => ({
      subject: `Anmeldung bei ${appName}`,
      blocks: [
        greet(undefined),
        ...(url
          ? [
              paragraph(`öffnen Sie den folgenden Link, um sich bei ${appName} anzumelden.`),
              link("Anmelden", url),
            ]
          : []),
        ...(otp
          ? [
              paragraph(
                url
                  ? "Oder geben Sie diesen Code auf dem Gerät ein, auf dem Sie die Anmeldung angefordert haben:"
                  : `verwenden Sie diesen Code, um sich bei ${appName} anzumelden:`,
              ),
              code(otp),
            ]
          : []),
        paragraph(
          `Die Anmeldung ist ${count(expiresInMinutes, "minutes")} lang und nur einmal möglich. Wenn Sie keine Anmeldung angefordert haben, können Sie diese E-Mail ignorieren.`,
        ),
        signOff(appName),
      ],
    }),
    "email-otp": ({ code: otp, purpose, appName, expiresInMinutes }) =>
      purpose === "email-verification"
        ? {
            subject: `Ihr Bestätigungscode für ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`verwenden Sie diesen Code, um Ihre E-Mail-Adresse für ${appName} zu bestätigen:`),
              code(otp),
              paragraph(
                `Der Code ist ${count(expiresInMinutes, "minutes")} lang gültig. Wenn Sie kein Konto bei ${appName} erstellt haben, können Sie diese E-Mail ignorieren.`,
              ),
              signOff(appName),
            ],
          }
        : {
            subject: `Ihr Code zum Zurücksetzen des Passworts für ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(
                `verwenden Sie diesen Code, um ein neues Passwort für Ihr Konto bei ${appName} festzulegen:`,
              ),
              code(otp),
              paragraph(
                `Der Code ist ${count(expiresInMinutes, "minutes")} lang gültig. Wenn Sie das Zurücksetzen nicht angefordert haben, können Sie diese E-Mail ignorieren: Ihr Passwort bleibt unverändert.`,
              ),
              signOff(appName),
            ],
          },
  },
};

// After the greeting's comma a German letter goes on in lower case (DIN 5008), so each first
// paragraph below starts lower-case unless it starts with a name or the polite «Sie/Ihr».
function greet(name: string | undefined): MailBlock {
  const shown = greetingName(name);
  return greeting(shown ? `Hallo ${shown},` : "Hallo,");
}

function signOff(appName: string): MailBlock {
  return paragraph(`— ${appName}`);
}
