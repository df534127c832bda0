import { code, countPhrase, greeting, greetingName, link, paragraph } from "./blocks.ts";
import type { MailBlock, MailTemplates } from "./types.ts";

const plurals = {
  minutes: { one: "# minute", other: "# minutes" },
  hours: { one: "# hour", other: "# hours" },
  revokedKeys: {
    one: "# API key created from a signed-in session was",
    other: "# API keys created from a signed-in session were",
  },
};

const count = (value: number, forms: keyof typeof plurals) => countPhrase("en", value, plurals[forms]);

export const enTemplates: MailTemplates = {
  htmlLang: "en",
  plurals,
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `Verify your email for ${appName}`,
      blocks: [
        greet(name),
        paragraph(`Please confirm your email address to finish setting up your ${appName} account.`),
        link("Verify email address", url),
        paragraph(`If you did not create an account with ${appName}, you can ignore this email.`),
        signOff(appName),
      ],
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `Reset your ${appName} password`,
      blocks: [
        greet(name),
        paragraph(
          `We received a request to reset the password of your ${appName} account. ` +
            "Open the link below to choose a new password.",
        ),
        link("Reset password", url),
        paragraph(
          `The link expires in ${count(expiresInMinutes, "minutes")}. ` +
            "If you did not ask for a reset, you can ignore this email: your password stays the same.",
        ),
        signOff(appName),
      ],
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `Confirm your new email address for ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `We received a request to change the email address of your ${appName} account to ${newEmail}. ` +
            "Open the link below to confirm the change.",
        ),
        link("Confirm email change", url),
        paragraph("If you did not ask for this change, ignore this email and your address stays the same."),
        signOff(appName),
      ],
    }),
    // Signing out everywhere deleted the keys made from a session (docs/security.md "Account
    // recovery"): the owner learns why an integration stopped, and can make new keys.
    // Five days of failed deliveries disabled the endpoint (features/webhooks, docs/decisions/0020-webhooks.md).
    "webhook-endpoint-disabled": ({ endpoint, appName }) => ({
      subject: `A webhook endpoint of ${appName} was disabled`,
      blocks: [
        greet(undefined),
        paragraph(
          `A webhook endpoint of ${appName} was disabled: every delivery to ${endpoint} failed for five days.`,
        ),
        paragraph(
          "Once the receiver answers again, enable the endpoint; the events it missed can be replayed.",
        ),
        signOff(appName),
      ],
    }),
    "api-keys-revoked": ({ count: keys, appName }) => ({
      subject: `Your ${appName} API keys were revoked`,
      blocks: [
        greet(undefined),
        paragraph(
          `Your ${appName} account was signed out everywhere, and ${count(keys, "revokedKeys")} revoked with it.`,
        ),
        paragraph(
          "If you use them, create new keys after signing in. If you did not sign out everywhere, reset " +
            "your password and review your account.",
        ),
        signOff(appName),
      ],
    }),
    // Sent to the address that was replaced (docs/security.md): a stolen session that moved the
    // account to another mailbox does not do it unnoticed.
    "email-changed": ({ newEmail, appName }) => ({
      subject: `Your ${appName} email address was changed`,
      blocks: [
        greet(undefined),
        paragraph(
          newEmail
            ? `The email address of your ${appName} account was changed to ${newEmail}.`
            : `The email address of your ${appName} account was changed to another address.`,
        ),
        paragraph(
          "If you made this change, there is nothing to do. If you did not, someone else may have " +
            `access to your account: contact ${appName} support right away.`,
        ),
        signOff(appName),
      ],
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `Confirm deleting your ${appName} account`,
      blocks: [
        greet(undefined),
        paragraph(
          `We received a request to delete your ${appName} account. Open the link below to confirm. ` +
            "Your account and its data will be deleted permanently.",
        ),
        link("Delete my account", url),
        paragraph(
          `The link expires in ${count(expiresInHours, "hours")}. If you did not ask to delete ` +
            "your account, ignore this email and consider changing your password.",
        ),
        signOff(appName),
      ],
    }),
    // Names chosen by the inviter stay out of the subject (docs/security.md, "Mail flooding"): a
    // subject is what a spam filter and a lock screen show, and must not carry a stranger's text.
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `You have been invited to an organization on ${appName}`,
      blocks: [
        greet(undefined),
        paragraph(
          `${inviterName} invited you to join ${organizationName} on ${appName} with the role “${role}”.`,
        ),
        link("View invitation", url),
        paragraph("If you were not expecting this invitation, you can ignore this email."),
        signOff(appName),
      ],
    }),
    // The code stays out of the subject so it does not show on lock screens and notification previews.
    "two-factor-otp": ({ code: otp, appName, expiresInMinutes }) => ({
      subject: `Your ${appName} sign-in code`,
      blocks: [
        greet(undefined),
        paragraph(`Use this code to finish signing in to ${appName}:`),
        code(otp),
        paragraph(
          `The code expires in ${count(expiresInMinutes, "minutes")}. If you did not try to sign in, ` +
            "change your password: someone else may know it.",
        ),
        signOff(appName),
      ],
    }),
    // One mail, both ways in (docs/passwordless.md): the link signs in where it is opened, the code
    // where the sign-in was asked for. Either part is left out when its endpoint is off.
    "sign-in-link": ({ url, code: otp, appName, expiresInMinutes }) => ({
      subject: `Sign in to ${appName}`,
      blocks: [
        greet(undefined),
        ...(url ? [paragraph(`Open the link below to sign in to ${appName}.`), link("Sign in", url)] : []),
        ...(otp
          ? [
              paragraph(
                url
                  ? "Or enter this code on the device where you asked to sign in:"
                  : `Use this code to sign in to ${appName}:`,
              ),
              code(otp),
            ]
          : []),
        paragraph(
          `It expires in ${count(expiresInMinutes, "minutes")} and works once. If you did not ask to sign in, you can ignore this email.`,
        ),
        signOff(appName),
      ],
    }),
    "email-otp": ({ code: otp, purpose, appName, expiresInMinutes }) =>
      purpose === "email-verification"
        ? {
            subject: `Your ${appName} verification code`,
            blocks: [
              greet(undefined),
              paragraph(`Use this code to confirm your email address for ${appName}:`),
              code(otp),
              paragraph(
                `The code expires in ${count(expiresInMinutes, "minutes")}. If you did not create an account with ${appName}, you can ignore this email.`,
              ),
              signOff(appName),
            ],
          }
        : {
            subject: `Your ${appName} password reset code`,
            blocks: [
              greet(undefined),
              paragraph(`Use this code to choose a new password for your ${appName} account:`),
              code(otp),
              paragraph(
                `The code expires in ${count(expiresInMinutes, "minutes")}. If you did not ask for a reset, you can ignore this email: your password stays the same.`,
              ),
              signOff(appName),
            ],
          },
  },
};

function greet(name: string | undefined): MailBlock {
  const shown = greetingName(name);
  return greeting(shown ? `Hi ${shown},` : "Hi,");
}

function signOff(appName: string): MailBlock {
  return paragraph(`— ${appName}`);
}
