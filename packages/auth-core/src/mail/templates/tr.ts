import { code, countPhrase, greeting, greetingName, link, paragraph } from "./blocks.ts";
import type { MailBlock, MailTemplates } from "./types.ts";

// Addressed with «siz». Turkish suffixes follow vowel harmony, so no suffix is ever attached to a
// name a user or operator chose: each stands before a noun that carries it («Acme hesabınız»,
// «“…” organizasyonuna»). A noun after a number stays singular, hence one form per phrase.
const plurals = {
  minutes: { one: "# dakika", other: "# dakika" },
  hours: { one: "# saat", other: "# saat" },
  revokedKeys: {
    one: "giriş yapılmış bir oturumda oluşturulan # API anahtarı da iptal edildi",
    other: "giriş yapılmış bir oturumda oluşturulan # API anahtarı da iptal edildi",
  },
};

const count = (value: number, forms: keyof typeof plurals) => countPhrase("tr", value, plurals[forms]);

export const trTemplates: MailTemplates = {
  htmlLang: "tr",
  plurals,
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `${appName} için e-posta adresinizi doğrulayın`,
      blocks: [
        greet(name),
        paragraph(`${appName} hesabınızın kurulumunu tamamlamak için lütfen e-posta adresinizi doğrulayın.`),
        link("E-posta adresini doğrula", url),
        paragraph(`${appName} üzerinde bir hesap oluşturmadıysanız bu e-postayı dikkate almayabilirsiniz.`),
        signOff(appName),
      ],
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `${appName} şifrenizi sıfırlayın`,
      blocks: [
        greet(name),
        paragraph(
          `${appName} hesabınızın şifresini sıfırlamak için bir istek aldık. ` +
            "Yeni bir şifre belirlemek için aşağıdaki bağlantıyı açın.",
        ),
        link("Şifreyi sıfırla", url),
        paragraph(
          `Bağlantı ${count(expiresInMinutes, "minutes")} boyunca geçerlidir. Sıfırlama isteğinde ` +
            "bulunmadıysanız bu e-postayı dikkate almayabilirsiniz: şifreniz değişmeden kalır.",
        ),
        signOff(appName),
      ],
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `${appName} için yeni e-posta adresinizi onaylayın`,
      blocks: [
        greet(undefined),
        paragraph(
          `${appName} hesabınızın e-posta adresini ${newEmail} olarak değiştirmek için bir istek aldık. ` +
            "Değişikliği onaylamak için aşağıdaki bağlantıyı açın.",
        ),
        link("E-posta değişikliğini onayla", url),
        paragraph(
          "Bu değişikliği siz istemediyseniz bu e-postayı dikkate almayın; adresiniz değişmeden kalır.",
        ),
        signOff(appName),
      ],
    }),
    // Five days of failed deliveries disabled the endpoint (features/webhooks, docs/decisions/0020-webhooks.md).
    "webhook-endpoint-disabled": ({ endpoint, appName }) => ({
      subject: `${appName} içindeki bir webhook uç noktası devre dışı bırakıldı`,
      blocks: [
        greet(undefined),
        paragraph(
          `${appName} içindeki bir webhook uç noktası devre dışı bırakıldı: ${endpoint} adresine yapılan tüm teslimatlar beş gün boyunca başarısız oldu.`,
        ),
        paragraph(
          "Alıcı yeniden yanıt verdiğinde uç noktayı etkinleştirin; kaçırılan olaylar yeniden gönderilebilir.",
        ),
        signOff(appName),
      ],
    }),
    "api-keys-revoked": ({ count: keys, appName }) => ({
      subject: `${appName} API anahtarlarınız iptal edildi`,
      blocks: [
        greet(undefined),
        paragraph(`${appName} hesabınızdaki tüm oturumlar kapatıldı ve ${count(keys, "revokedKeys")}.`),
        paragraph(
          "Bu anahtarları kullanıyorsanız giriş yaptıktan sonra yeni anahtarlar oluşturun. Tüm oturumları " +
            "siz kapatmadıysanız şifrenizi sıfırlayın ve hesabınızı gözden geçirin.",
        ),
        signOff(appName),
      ],
    }),
    "email-changed": ({ newEmail, appName }) => ({
      subject: `${appName} e-posta adresiniz değiştirildi`,
      blocks: [
        greet(undefined),
        paragraph(
          newEmail
            ? `${appName} hesabınızın e-posta adresi ${newEmail} olarak değiştirildi.`
            : `${appName} hesabınızın e-posta adresi başka bir adresle değiştirildi.`,
        ),
        paragraph(
          "Bu değişikliği siz yaptıysanız bir şey yapmanıza gerek yok. Siz yapmadıysanız başka biri " +
            `hesabınıza erişmiş olabilir: hemen ${appName} destek ekibiyle iletişime geçin.`,
        ),
        signOff(appName),
      ],
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `${appName} hesabınızın silinmesini onaylayın`,
      blocks: [
        greet(undefined),
        paragraph(
          `${appName} hesabınızı silmek için bir istek aldık. Onaylamak için aşağıdaki bağlantıyı açın. ` +
            "Hesabınız ve verileriniz kalıcı olarak silinecektir.",
        ),
        link("Hesabımı sil", url),
        paragraph(
          `Bağlantı ${count(expiresInHours, "hours")} boyunca geçerlidir. Hesabınızın silinmesini siz ` +
            "istemediyseniz bu e-postayı dikkate almayın ve şifrenizi değiştirmeyi düşünün.",
        ),
        signOff(appName),
      ],
    }),
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `${appName} üzerinde bir organizasyona davet edildiniz`,
      blocks: [
        greet(undefined),
        paragraph(
          `${inviterName} sizi ${appName} üzerindeki “${organizationName}” organizasyonuna “${role}” ` +
            "rolüyle katılmaya davet ediyor.",
        ),
        link("Daveti görüntüle", url),
        paragraph("Bu daveti beklemiyorsanız bu e-postayı dikkate almayabilirsiniz."),
        signOff(appName),
      ],
    }),
    "two-factor-otp": ({ code: otp, appName, expiresInMinutes }) => ({
      subject: `${appName} giriş kodunuz`,
      blocks: [
        greet(undefined),
        paragraph(`${appName} girişinizi tamamlamak için bu kodu kullanın:`),
        code(otp),
        paragraph(
          `Kod ${count(expiresInMinutes, "minutes")} boyunca geçerlidir. Giriş yapmayı denemediyseniz ` +
            "şifrenizi değiştirin: başka biri şifrenizi biliyor olabilir.",
        ),
        signOff(appName),
      ],
    }),
    // One mail, both ways in (docs/passwordless.md): the link signs in where it is opened, the code
    // where the sign-in was asked for. Either part is left out when its endpoint is off.
    "sign-in-link": ({ url, code: otp, appName, expiresInMinutes }) => ({
      subject: `${appName} girişi`,
      blocks: [
        greet(undefined),
        ...(url
          ? [
              paragraph(`${appName} hesabınıza giriş yapmak için aşağıdaki bağlantıyı açın.`),
              link("Giriş yap", url),
            ]
          : []),
        ...(otp
          ? [
              paragraph(
                url
                  ? "Ya da bu kodu girişi istediğiniz cihazda girin:"
                  : `${appName} hesabınıza giriş yapmak için bu kodu kullanın:`,
              ),
              code(otp),
            ]
          : []),
        paragraph(
          `${count(expiresInMinutes, "minutes")} boyunca geçerlidir ve yalnızca bir kez kullanılabilir. Giriş yapmak istemediyseniz bu e-postayı dikkate almayabilirsiniz.`,
        ),
        signOff(appName),
      ],
    }),
    "email-otp": ({ code: otp, purpose, appName, expiresInMinutes }) =>
      purpose === "email-verification"
        ? {
            subject: `${appName} doğrulama kodunuz`,
            blocks: [
              greet(undefined),
              paragraph(`${appName} için e-posta adresinizi doğrulamak üzere bu kodu kullanın:`),
              code(otp),
              paragraph(
                `Kod ${count(expiresInMinutes, "minutes")} boyunca geçerlidir. ${appName} üzerinde bir hesap oluşturmadıysanız bu e-postayı dikkate almayabilirsiniz.`,
              ),
              signOff(appName),
            ],
          }
        : {
            subject: `${appName} şifre sıfırlama kodunuz`,
            blocks: [
              greet(undefined),
              paragraph(`${appName} hesabınız için yeni bir şifre belirlemek üzere bu kodu kullanın:`),
              code(otp),
              paragraph(
                `Kod ${count(expiresInMinutes, "minutes")} boyunca geçerlidir. Sıfırlama isteğinde bulunmadıysanız bu e-postayı dikkate almayabilirsiniz: şifreniz değişmez.`,
              ),
              signOff(appName),
            ],
          },
  },
};

function greet(name: string | undefined): MailBlock {
  const shown = greetingName(name);
  return greeting(shown ? `Merhaba ${shown},` : "Merhaba,");
}

function signOff(appName: string): MailBlock {
  return paragraph(`— ${appName}`);
}
