import { code, countPhrase, greeting, greetingName, link, paragraph } from "./blocks.ts";
import type { MailBlock, MailTemplates } from "./types.ts";

// Addressed with «vous». French typography puts a no-break space (U+00A0) before «:» and inside
// guillemets; `many` is the "1000000 de minutes" form of round millions. Sentences avoid past
// participles agreeing with the reader («connecté·e»), whose gender is unknown.
const NBSP = "\u00a0";

const plurals = {
  minutes: { one: "# minute", many: "# de minutes", other: "# minutes" },
  hours: { one: "# heure", many: "# d’heures", other: "# heures" },
  revokedKeys: {
    one: "# clé API créée depuis une session connectée a été révoquée",
    many: "# de clés API créées depuis une session connectée ont été révoquées",
    other: "# clés API créées depuis une session connectée ont été révoquées",
  },
};

const count = (value: number, forms: keyof typeof plurals) => countPhrase("fr", value, plurals[forms]);

export const frTemplates: MailTemplates = {
  htmlLang: "fr",
  plurals,
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `Confirmez votre adresse e-mail pour ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          `Veuillez confirmer votre adresse e-mail pour terminer la configuration de votre compte ${appName}.`,
        ),
        link("Confirmer l’adresse e-mail", url),
        paragraph(`Si vous n’avez pas créé de compte sur ${appName}, vous pouvez ignorer cet e-mail.`),
        signOff(appName),
      ],
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `Réinitialisez votre mot de passe ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          "Nous avons reçu une demande de réinitialisation du mot de passe de votre compte " +
            `${appName}. Ouvrez le lien ci-dessous pour choisir un nouveau mot de passe.`,
        ),
        link("Réinitialiser le mot de passe", url),
        paragraph(
          `Ce lien expire dans ${count(expiresInMinutes, "minutes")}. Si vous n’avez pas demandé de ` +
            `réinitialisation, vous pouvez ignorer cet e-mail${NBSP}: votre mot de passe reste inchangé.`,
        ),
        signOff(appName),
      ],
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `Confirmez votre nouvelle adresse e-mail pour ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Nous avons reçu une demande pour remplacer l’adresse e-mail de votre compte ${appName} par ` +
            `${newEmail}. Ouvrez le lien ci-dessous pour confirmer le changement.`,
        ),
        link("Confirmer le changement d’adresse", url),
        paragraph(
          "Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail" +
            `${NBSP}: votre adresse restera inchangée.`,
        ),
        signOff(appName),
      ],
    }),
    // Five days of failed deliveries disabled the endpoint (features/webhooks, docs/decisions/0020-webhooks.md).
    "webhook-endpoint-disabled": ({ endpoint, appName }) => ({
      subject: `Un point de terminaison de webhook de ${appName} a été désactivé`,
      blocks: [
        greet(undefined),
        paragraph(
          `Un point de terminaison de webhook de ${appName} a été désactivé : toutes les livraisons vers ${endpoint} ont échoué pendant cinq jours.`,
        ),
        paragraph(
          "Quand le destinataire répond de nouveau, réactivez-le ; les événements manqués peuvent être renvoyés.",
        ),
        signOff(appName),
      ],
    }),
    "api-keys-revoked": ({ count: keys, appName }) => ({
      subject: `Vos clés API ${appName} ont été révoquées`,
      blocks: [
        greet(undefined),
        paragraph(
          `Votre compte ${appName} a été déconnecté de tous les appareils et, par la même occasion, ` +
            `${count(keys, "revokedKeys")}.`,
        ),
        paragraph(
          "Si vous les utilisez, créez de nouvelles clés après avoir ouvert une session. Si vous n’avez " +
            "pas demandé la déconnexion de tous les appareils, réinitialisez votre mot de passe et " +
            "vérifiez votre compte.",
        ),
        signOff(appName),
      ],
    }),
    "email-changed": ({ newEmail, appName }) => ({
      subject: `L’adresse e-mail de votre compte ${appName} a été modifiée`,
      blocks: [
        greet(undefined),
        paragraph(
          newEmail
            ? `L’adresse e-mail de votre compte ${appName} a été remplacée par ${newEmail}.`
            : `L’adresse e-mail de votre compte ${appName} a été remplacée par une autre adresse.`,
        ),
        paragraph(
          "Si vous êtes à l’origine de cette modification, vous n’avez rien à faire. Sinon, quelqu’un " +
            `d’autre a peut-être accès à votre compte${NBSP}: contactez immédiatement l’assistance ${appName}.`,
        ),
        signOff(appName),
      ],
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `Confirmez la suppression de votre compte ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Nous avons reçu une demande de suppression de votre compte ${appName}. Ouvrez le lien ` +
            "ci-dessous pour la confirmer. Votre compte et ses données seront supprimés définitivement.",
        ),
        link("Supprimer mon compte", url),
        paragraph(
          `Ce lien expire dans ${count(expiresInHours, "hours")}. Si vous n’avez pas demandé la ` +
            "suppression de votre compte, ignorez cet e-mail et pensez à changer votre mot de passe.",
        ),
        signOff(appName),
      ],
    }),
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `Invitation à rejoindre une organisation sur ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `${inviterName} vous invite à rejoindre l’organisation «${NBSP}${organizationName}${NBSP}» ` +
            `sur ${appName} avec le rôle «${NBSP}${role}${NBSP}».`,
        ),
        link("Voir l’invitation", url),
        paragraph("Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail."),
        signOff(appName),
      ],
    }),
    "two-factor-otp": ({ code: otp, appName, expiresInMinutes }) => ({
      subject: `Votre code de connexion ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(`Utilisez ce code pour terminer votre connexion à ${appName}${NBSP}:`),
        code(otp),
        paragraph(
          `Ce code expire dans ${count(expiresInMinutes, "minutes")}. Si vous n’avez pas essayé de ` +
            `vous connecter, changez votre mot de passe${NBSP}: quelqu’un d’autre le connaît peut-être.`,
        ),
        signOff(appName),
      ],
    }),
    // One mail, both ways in (docs/passwordless.md): the link signs in where it is opened, the code
    // where the sign-in was asked for. Either part is left out when its endpoint is off.
    "sign-in-link": ({ url, code: otp, appName, expiresInMinutes }) => ({
      subject: `Connexion à ${appName}`,
      blocks: [
        greet(undefined),
        ...(url
          ? [
              paragraph(`Ouvrez le lien ci-dessous pour vous connecter à ${appName}.`),
              link("Se connecter", url),
            ]
          : []),
        ...(otp
          ? [
              paragraph(
                url
                  ? `Ou saisissez ce code sur l’appareil où vous avez demandé à vous connecter${NBSP}:`
                  : `Utilisez ce code pour vous connecter à ${appName}${NBSP}:`,
              ),
              code(otp),
            ]
          : []),
        paragraph(
          `Cette connexion expire dans ${count(expiresInMinutes, "minutes")} et ne fonctionne qu’une fois. Si vous n’avez pas demandé à vous connecter, vous pouvez ignorer cet e-mail.`,
        ),
        signOff(appName),
      ],
    }),
    "email-otp": ({ code: otp, purpose, appName, expiresInMinutes }) =>
      purpose === "email-verification"
        ? {
            subject: `Votre code de vérification ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Utilisez ce code pour confirmer votre adresse e-mail pour ${appName}${NBSP}:`),
              code(otp),
              paragraph(
                `Ce code expire dans ${count(expiresInMinutes, "minutes")}. Si vous n’avez pas créé de compte sur ${appName}, vous pouvez ignorer cet e-mail.`,
              ),
              signOff(appName),
            ],
          }
        : {
            subject: `Votre code de réinitialisation du mot de passe ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(
                `Utilisez ce code pour choisir un nouveau mot de passe pour votre compte ${appName}${NBSP}:`,
              ),
              code(otp),
              paragraph(
                `Ce code expire dans ${count(expiresInMinutes, "minutes")}. Si vous n’avez pas demandé de réinitialisation, vous pouvez ignorer cet e-mail${NBSP}: votre mot de passe reste le même.`,
              ),
              signOff(appName),
            ],
          },
  },
};

function greet(name: string | undefined): MailBlock {
  const shown = greetingName(name);
  return greeting(shown ? `Bonjour ${shown},` : "Bonjour,");
}

function signOff(appName: string): MailBlock {
  return paragraph(`— ${appName}`);
}
