import { code, countPhrase, greeting, greetingName, link, paragraph } from "./blocks.ts";
import type { MailBlock, MailTemplates } from "./types.ts";

// Addressed with «tú», as apps in Spain and Latin America usually are. `many` is the "1000000 de
// minutos" form of round millions.
const plurals = {
  minutes: { one: "# minuto", many: "# de minutos", other: "# minutos" },
  hours: { one: "# hora", many: "# de horas", other: "# horas" },
  revokedKeys: {
    one: "se ha revocado # clave de API creada desde una sesión iniciada",
    many: "se han revocado # de claves de API creadas desde una sesión iniciada",
    other: "se han revocado # claves de API creadas desde una sesión iniciada",
  },
};

const count = (value: number, forms: keyof typeof plurals) => countPhrase("es", value, plurals[forms]);

export const esTemplates: MailTemplates = {
  htmlLang: "es",
  plurals,
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `Verifica tu correo electrónico en ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          `Confirma tu dirección de correo electrónico para terminar de configurar tu cuenta de ${appName}.`,
        ),
        link("Verificar correo electrónico", url),
        paragraph(`Si no has creado una cuenta en ${appName}, puedes ignorar este correo.`),
        signOff(appName),
      ],
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `Restablece tu contraseña de ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          `Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de ${appName}. ` +
            "Abre el siguiente enlace para elegir una contraseña nueva.",
        ),
        link("Restablecer contraseña", url),
        paragraph(
          `El enlace caduca en ${count(expiresInMinutes, "minutes")}. Si no has solicitado el ` +
            "restablecimiento, puedes ignorar este correo: tu contraseña seguirá siendo la misma.",
        ),
        signOff(appName),
      ],
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `Confirma tu nueva dirección de correo en ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          "Hemos recibido una solicitud para cambiar la dirección de correo electrónico de tu cuenta " +
            `de ${appName} a ${newEmail}. Abre el siguiente enlace para confirmar el cambio.`,
        ),
        link("Confirmar el cambio de correo", url),
        paragraph(
          "Si no has solicitado este cambio, ignora este correo y tu dirección seguirá siendo la misma.",
        ),
        signOff(appName),
      ],
    }),
    // Five days of failed deliveries disabled the endpoint (features/webhooks, docs/decisions/0020-webhooks.md).
    "webhook-endpoint-disabled": ({ endpoint, appName }) => ({
      subject: `Se ha desactivado un endpoint de webhook de ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Se ha desactivado un endpoint de webhook de ${appName}: todas las entregas a ${endpoint} han fallado durante cinco días.`,
        ),
        paragraph(
          "Cuando el receptor vuelva a responder, activa el endpoint; los eventos perdidos se pueden reenviar.",
        ),
        signOff(appName),
      ],
    }),
    "api-keys-revoked": ({ count: keys, appName }) => ({
      subject: `Se han revocado tus claves de API de ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Se han cerrado todas las sesiones de tu cuenta de ${appName} y, con ellas, ${count(keys, "revokedKeys")}.`,
        ),
        paragraph(
          "Si las usas, crea claves nuevas después de iniciar sesión. Si no has cerrado todas las " +
            "sesiones, restablece tu contraseña y revisa tu cuenta.",
        ),
        signOff(appName),
      ],
    }),
    "email-changed": ({ newEmail, appName }) => ({
      subject: `Se ha cambiado tu dirección de correo de ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          newEmail
            ? `La dirección de correo electrónico de tu cuenta de ${appName} se ha cambiado a ${newEmail}.`
            : `La dirección de correo electrónico de tu cuenta de ${appName} se ha cambiado a otra dirección.`,
        ),
        paragraph(
          "Si has hecho tú este cambio, no tienes que hacer nada. Si no, es posible que otra persona " +
            `tenga acceso a tu cuenta: ponte en contacto con el soporte de ${appName} de inmediato.`,
        ),
        signOff(appName),
      ],
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `Confirma la eliminación de tu cuenta de ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Hemos recibido una solicitud para eliminar tu cuenta de ${appName}. Abre el siguiente enlace ` +
            "para confirmarla. Tu cuenta y sus datos se eliminarán de forma permanente.",
        ),
        link("Eliminar mi cuenta", url),
        paragraph(
          `El enlace caduca en ${count(expiresInHours, "hours")}. Si no has solicitado eliminar tu cuenta, ` +
            "ignora este correo y plantéate cambiar tu contraseña.",
        ),
        signOff(appName),
      ],
    }),
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `Te han invitado a una organización en ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `${inviterName} te ha invitado a unirte a la organización «${organizationName}» ` +
            `en ${appName} con el rol «${role}».`,
        ),
        link("Ver invitación", url),
        paragraph("Si no esperabas esta invitación, puedes ignorar este correo."),
        signOff(appName),
      ],
    }),
    "two-factor-otp": ({ code: otp, appName, expiresInMinutes }) => ({
      subject: `Tu código de inicio de sesión de ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(`Usa este código para terminar de iniciar sesión en ${appName}:`),
        code(otp),
        paragraph(
          `El código caduca en ${count(expiresInMinutes, "minutes")}. Si no has intentado iniciar ` +
            "sesión, cambia tu contraseña: puede que otra persona la conozca.",
        ),
        signOff(appName),
      ],
    }),
    // One mail, both ways in (docs/passwordless.md): the link signs in where it is opened, the code
    // where the sign-in was asked for. Either part is left out when its endpoint is off.
    "sign-in-link": ({ url, code: otp, appName, expiresInMinutes }) => ({
      subject: `Inicia sesión en ${appName}`,
      blocks: [
        greet(undefined),
        ...(url
          ? [
              paragraph(`Abre el siguiente enlace para iniciar sesión en ${appName}.`),
              link("Iniciar sesión", url),
            ]
          : []),
        ...(otp
          ? [
              paragraph(
                url
                  ? "O introduce este código en el dispositivo donde pediste iniciar sesión:"
                  : `Usa este código para iniciar sesión en ${appName}:`,
              ),
              code(otp),
            ]
          : []),
        paragraph(
          `Caduca en ${count(expiresInMinutes, "minutes")} y solo sirve una vez. Si no has pedido iniciar sesión, puedes ignorar este correo.`,
        ),
        signOff(appName),
      ],
    }),
    "email-otp": ({ code: otp, purpose, appName, expiresInMinutes }) =>
      purpose === "email-verification"
        ? {
            subject: `Tu código de verificación de ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Usa este código para confirmar tu dirección de correo electrónico en ${appName}:`),
              code(otp),
              paragraph(
                `El código caduca en ${count(expiresInMinutes, "minutes")}. Si no has creado una cuenta en ${appName}, puedes ignorar este correo.`,
              ),
              signOff(appName),
            ],
          }
        : {
            subject: `Tu código para restablecer la contraseña de ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Usa este código para elegir una contraseña nueva para tu cuenta de ${appName}:`),
              code(otp),
              paragraph(
                `El código caduca en ${count(expiresInMinutes, "minutes")}. Si no has solicitado el restablecimiento, puedes ignorar este correo: tu contraseña no cambiará.`,
              ),
              signOff(appName),
            ],
          },
  },
};

// A letter's greeting takes a colon in Spanish («Hola, Ana:»).
function greet(name: string | undefined): MailBlock {
  const shown = greetingName(name);
  return greeting(shown ? `Hola, ${shown}:` : "Hola:");
}

function signOff(appName: string): MailBlock {
  return paragraph(`— ${appName}`);
}
