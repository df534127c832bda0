import { code, countPhrase, greeting, greetingName, link, paragraph } from "./blocks.ts";
import type { MailBlock, MailTemplates } from "./types.ts";

// Durations are in the accusative ("ссылка действует 5 минут"); names chosen by users stand in the
// nominative after a noun («организация „…“») so they never need declining.
const plurals = {
  minutes: { one: "# минуту", few: "# минуты", many: "# минут", other: "# минуты" },
  hours: { one: "# час", few: "# часа", many: "# часов", other: "# часа" },
  revokedKeys: {
    one: "был отозван # API-ключ, созданный во время сеанса входа",
    few: "были отозваны # API-ключа, созданных во время сеанса входа",
    many: "были отозваны # API-ключей, созданных во время сеанса входа",
    other: "были отозваны # API-ключа, созданных во время сеанса входа",
  },
};

const count = (value: number, forms: keyof typeof plurals) => countPhrase("ru", value, plurals[forms]);

export const ruTemplates: MailTemplates = {
  htmlLang: "ru",
  plurals,
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `Подтвердите адрес электронной почты для ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          `Подтвердите адрес электронной почты, чтобы завершить настройку учётной записи ${appName}.`,
        ),
        link("Подтвердить адрес", url),
        paragraph(`Если вы не создавали учётную запись в ${appName}, просто проигнорируйте это письмо.`),
        signOff(appName),
      ],
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `Сброс пароля для ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          `Мы получили запрос на сброс пароля вашей учётной записи ${appName}. ` +
            "Перейдите по ссылке ниже, чтобы задать новый пароль.",
        ),
        link("Сбросить пароль", url),
        paragraph(
          `Ссылка действует ${count(expiresInMinutes, "minutes")}. Если вы не запрашивали сброс, ` +
            "просто проигнорируйте это письмо: ваш пароль останется прежним.",
        ),
        signOff(appName),
      ],
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `Подтвердите новый адрес электронной почты для ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Мы получили запрос на смену адреса электронной почты вашей учётной записи ${appName} ` +
            `на ${newEmail}. Перейдите по ссылке ниже, чтобы подтвердить изменение.`,
        ),
        link("Подтвердить смену адреса", url),
        paragraph(
          "Если вы не запрашивали это изменение, проигнорируйте письмо — ваш адрес останется прежним.",
        ),
        signOff(appName),
      ],
    }),
    // Five days of failed deliveries disabled the endpoint (features/webhooks, docs/decisions/0020-webhooks.md).
    "webhook-endpoint-disabled": ({ endpoint, appName }) => ({
      subject: `Конечная точка вебхука в ${appName} отключена`,
      blocks: [
        greet(undefined),
        paragraph(
          `Конечная точка вебхука в ${appName} отключена: все доставки на ${endpoint} завершались ошибкой в течение пяти дней.`,
        ),
        paragraph(
          "Когда получатель снова начнёт отвечать, включите её; пропущенные события можно отправить повторно.",
        ),
        signOff(appName),
      ],
    }),
    "api-keys-revoked": ({ count: keys, appName }) => ({
      subject: `Ваши API-ключи в ${appName} отозваны`,
      blocks: [
        greet(undefined),
        paragraph(
          `В вашей учётной записи ${appName} завершены все сеансы, и вместе с ними ${count(keys, "revokedKeys")}.`,
        ),
        paragraph(
          "Если вы пользуетесь этими ключами, создайте новые после входа. Если вы не завершали все " +
            "сеансы, сбросьте пароль и проверьте свою учётную запись.",
        ),
        signOff(appName),
      ],
    }),
    "email-changed": ({ newEmail, appName }) => ({
      subject: `Адрес электронной почты в ${appName} изменён`,
      blocks: [
        greet(undefined),
        paragraph(
          newEmail
            ? `Адрес электронной почты вашей учётной записи ${appName} изменён на ${newEmail}.`
            : `Адрес электронной почты вашей учётной записи ${appName} изменён на другой.`,
        ),
        paragraph(
          "Если это сделали вы, ничего делать не нужно. Если нет, возможно, кто-то другой получил доступ " +
            `к вашей учётной записи: срочно обратитесь в службу поддержки ${appName}.`,
        ),
        signOff(appName),
      ],
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `Подтвердите удаление учётной записи ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Мы получили запрос на удаление вашей учётной записи ${appName}. Перейдите по ссылке ниже, ` +
            "чтобы подтвердить его. Учётная запись и все её данные будут удалены безвозвратно.",
        ),
        link("Удалить мою учётную запись", url),
        paragraph(
          `Ссылка действует ${count(expiresInHours, "hours")}. Если вы не запрашивали удаление, ` +
            "проигнорируйте это письмо и подумайте о смене пароля.",
        ),
        signOff(appName),
      ],
    }),
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `${appName}: приглашение в организацию`,
      blocks: [
        greet(undefined),
        paragraph(
          `${inviterName} приглашает вас присоединиться к организации «${organizationName}» ` +
            `в ${appName} с ролью «${role}».`,
        ),
        link("Открыть приглашение", url),
        paragraph("Если вы не ждали этого приглашения, просто проигнорируйте письмо."),
        signOff(appName),
      ],
    }),
    "two-factor-otp": ({ code: otp, appName, expiresInMinutes }) => ({
      subject: `Код для входа в ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(`Введите этот код, чтобы завершить вход в ${appName}:`),
        code(otp),
        paragraph(
          `Код действует ${count(expiresInMinutes, "minutes")}. Если вы не пытались войти, ` +
            "смените пароль: возможно, он известен кому-то ещё.",
        ),
        signOff(appName),
      ],
    }),
    // One mail, both ways in (docs/passwordless.md): the link signs in where it is opened, the code
    // where the sign-in was asked for. Either part is left out when its endpoint is off.
    "sign-in-link": ({ url, code: otp, appName, expiresInMinutes }) => ({
      subject: `Вход в ${appName}`,
      blocks: [
        greet(undefined),
        ...(url
          ? [paragraph(`Перейдите по ссылке ниже, чтобы войти в ${appName}.`), link("Войти", url)]
          : []),
        ...(otp
          ? [
              paragraph(
                url
                  ? "Или введите этот код на устройстве, где вы запросили вход:"
                  : `Введите этот код, чтобы войти в ${appName}:`,
              ),
              code(otp),
            ]
          : []),
        paragraph(
          `Вход по этому письму действует ${count(expiresInMinutes, "minutes")} и возможен один раз. Если вы не запрашивали вход, просто проигнорируйте это письмо.`,
        ),
        signOff(appName),
      ],
    }),
    "email-otp": ({ code: otp, purpose, appName, expiresInMinutes }) =>
      purpose === "email-verification"
        ? {
            subject: `Код подтверждения для ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Введите этот код, чтобы подтвердить адрес электронной почты для ${appName}:`),
              code(otp),
              paragraph(
                `Код действует ${count(expiresInMinutes, "minutes")}. Если вы не создавали учётную запись в ${appName}, просто проигнорируйте это письмо.`,
              ),
              signOff(appName),
            ],
          }
        : {
            subject: `Код для сброса пароля в ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Введите этот код, чтобы задать новый пароль учётной записи ${appName}:`),
              code(otp),
              paragraph(
                `Код действует ${count(expiresInMinutes, "minutes")}. Если вы не запрашивали сброс, просто проигнорируйте это письмо: пароль останется прежним.`,
              ),
              signOff(appName),
            ],
          },
  },
};

function greet(name: string | undefined): MailBlock {
  const shown = greetingName(name);
  return greeting(shown ? `Здравствуйте, ${shown}!` : "Здравствуйте!");
}

function signOff(appName: string): MailBlock {
  return paragraph(`— ${appName}`);
}
