import { code, countPhrase, greeting, greetingName, link, paragraph } from "./blocks.ts";
import type { MailBlock, MailTemplates } from "./types.ts";

// Durations are in the accusative ("посилання діє 5 хвилин"); names chosen by users stand in the
// nominative after a noun (організація «…») so they never need declining.
const plurals = {
  minutes: { one: "# хвилину", few: "# хвилини", many: "# хвилин", other: "# хвилини" },
  hours: { one: "# годину", few: "# години", many: "# годин", other: "# години" },
  revokedKeys: {
    one: "відкликано # API-ключ, створений під час сеансу входу",
    few: "відкликано # API-ключі, створені під час сеансу входу",
    many: "відкликано # API-ключів, створених під час сеансу входу",
    other: "відкликано # API-ключа, створеного під час сеансу входу",
  },
};

const count = (value: number, forms: keyof typeof plurals) => countPhrase("uk", value, plurals[forms]);

export const ukTemplates: MailTemplates = {
  htmlLang: "uk",
  plurals,
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `Підтвердьте електронну адресу для ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          `Підтвердьте свою електронну адресу, щоб завершити налаштування облікового запису ${appName}.`,
        ),
        link("Підтвердити адресу", url),
        paragraph(`Якщо ви не створювали обліковий запис у ${appName}, просто проігноруйте цей лист.`),
        signOff(appName),
      ],
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `Скидання пароля для ${appName}`,
      blocks: [
        greet(name),
        paragraph(
          `Ми отримали запит на скидання пароля вашого облікового запису ${appName}. ` +
            "Перейдіть за посиланням нижче, щоб установити новий пароль.",
        ),
        link("Скинути пароль", url),
        paragraph(
          `Посилання діє ${count(expiresInMinutes, "minutes")}. Якщо ви не надсилали запиту на скидання, ` +
            "просто проігноруйте цей лист: ваш пароль залишиться незмінним.",
        ),
        signOff(appName),
      ],
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `Підтвердьте нову електронну адресу для ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Ми отримали запит на зміну електронної адреси вашого облікового запису ${appName} ` +
            `на ${newEmail}. Перейдіть за посиланням нижче, щоб підтвердити зміну.`,
        ),
        link("Підтвердити зміну адреси", url),
        paragraph(
          "Якщо ви не просили про цю зміну, проігноруйте цей лист — ваша адреса залишиться незмінною.",
        ),
        signOff(appName),
      ],
    }),
    // Five days of failed deliveries disabled the endpoint (features/webhooks, docs/decisions/0020-webhooks.md).
    "webhook-endpoint-disabled": ({ endpoint, appName }) => ({
      subject: `Кінцеву точку вебхука в ${appName} вимкнено`,
      blocks: [
        greet(undefined),
        paragraph(
          `Кінцеву точку вебхука в ${appName} вимкнено: усі доставки на ${endpoint} завершувалися помилкою протягом п’яти днів.`,
        ),
        paragraph(
          "Коли одержувач знову відповідатиме, увімкніть її; пропущені події можна надіслати повторно.",
        ),
        signOff(appName),
      ],
    }),
    "api-keys-revoked": ({ count: keys, appName }) => ({
      subject: `Ваші API-ключі в ${appName} відкликано`,
      blocks: [
        greet(undefined),
        paragraph(
          `У вашому обліковому записі ${appName} завершено всі сеанси, і разом із ними ${count(keys, "revokedKeys")}.`,
        ),
        paragraph(
          "Якщо ви користуєтеся цими ключами, створіть нові після входу. Якщо ви не завершували всі " +
            "сеанси, скиньте пароль і перевірте свій обліковий запис.",
        ),
        signOff(appName),
      ],
    }),
    "email-changed": ({ newEmail, appName }) => ({
      subject: `Електронну адресу в ${appName} змінено`,
      blocks: [
        greet(undefined),
        paragraph(
          newEmail
            ? `Електронну адресу вашого облікового запису ${appName} змінено на ${newEmail}.`
            : `Електронну адресу вашого облікового запису ${appName} змінено на іншу.`,
        ),
        paragraph(
          "Якщо це зробили ви, нічого робити не потрібно. Якщо ні, можливо, хтось інший має доступ " +
            `до вашого облікового запису: негайно зверніться до служби підтримки ${appName}.`,
        ),
        signOff(appName),
      ],
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `Підтвердьте видалення облікового запису ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `Ми отримали запит на видалення вашого облікового запису ${appName}. Перейдіть за посиланням ` +
            "нижче, щоб підтвердити його. Обліковий запис і всі його дані буде видалено назавжди.",
        ),
        link("Видалити мій обліковий запис", url),
        paragraph(
          `Посилання діє ${count(expiresInHours, "hours")}. Якщо ви не просили видалити обліковий запис, ` +
            "проігноруйте цей лист і подумайте про зміну пароля.",
        ),
        signOff(appName),
      ],
    }),
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `${appName}: запрошення до організації`,
      blocks: [
        greet(undefined),
        paragraph(
          `${inviterName} запрошує вас приєднатися до організації «${organizationName}» ` +
            `у ${appName} з роллю «${role}».`,
        ),
        link("Переглянути запрошення", url),
        paragraph("Якщо ви не очікували цього запрошення, просто проігноруйте цей лист."),
        signOff(appName),
      ],
    }),
    "two-factor-otp": ({ code: otp, appName, expiresInMinutes }) => ({
      subject: `Код для входу в ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(`Введіть цей код, щоб завершити вхід у ${appName}:`),
        code(otp),
        paragraph(
          `Код діє ${count(expiresInMinutes, "minutes")}. Якщо ви не намагалися увійти, ` +
            "змініть пароль: можливо, його знає хтось інший.",
        ),
        signOff(appName),
      ],
    }),
    // One mail, both ways in (docs/passwordless.md): the link signs in where it is opened, the code
    // where the sign-in was asked for. Either part is left out when its endpoint is off.
    "sign-in-link": ({ url, code: otp, appName, expiresInMinutes }) => ({
      subject: `Вхід у ${appName}`,
      blocks: [
        greet(undefined),
        ...(url
          ? [paragraph(`Перейдіть за посиланням нижче, щоб увійти в ${appName}.`), link("Увійти", url)]
          : []),
        ...(otp
          ? [
              paragraph(
                url
                  ? "Або введіть цей код на пристрої, де ви запросили вхід:"
                  : `Введіть цей код, щоб увійти в ${appName}:`,
              ),
              code(otp),
            ]
          : []),
        paragraph(
          `Вхід за цим листом діє ${count(expiresInMinutes, "minutes")} і можливий один раз. Якщо ви не запитували вхід, просто проігноруйте цей лист.`,
        ),
        signOff(appName),
      ],
    }),
    "email-otp": ({ code: otp, purpose, appName, expiresInMinutes }) =>
      purpose === "email-verification"
        ? {
            subject: `Код підтвердження для ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Введіть цей код, щоб підтвердити електронну адресу для ${appName}:`),
              code(otp),
              paragraph(
                `Код діє ${count(expiresInMinutes, "minutes")}. Якщо ви не створювали обліковий запис у ${appName}, просто проігноруйте цей лист.`,
              ),
              signOff(appName),
            ],
          }
        : {
            subject: `Код для скидання пароля в ${appName}`,
            blocks: [
              greet(undefined),
              paragraph(`Введіть цей код, щоб установити новий пароль облікового запису ${appName}:`),
              code(otp),
              paragraph(
                `Код діє ${count(expiresInMinutes, "minutes")}. Якщо ви не надсилали запиту на скидання, просто проігноруйте цей лист: пароль залишиться тим самим.`,
              ),
              signOff(appName),
            ],
          },
  },
};

function greet(name: string | undefined): MailBlock {
  const shown = greetingName(name);
  return greeting(shown ? `Вітаємо, ${shown}!` : "Вітаємо!");
}

function signOff(appName: string): MailBlock {
  return paragraph(`— ${appName}`);
}
