/**
 * The words of the app's pages in German: `tessera init --language de` wrote this file from
 * templates/strings/ (one file a language, the same keys in each); it is yours to change. LANG is
 * the pages' language: <html lang> and the core's error messages (app/auth.server.ts errorMessage).
 */
export const LANG = "de";

export const strings = {
  common: {
    tooManyAttempts: (wait: number) => `Zu viele Versuche. Versuchen Sie es in ${wait} s erneut.`,
    somethingWrong: "Etwas ist schiefgelaufen. Versuchen Sie es erneut.",
  },
  home: {
    title: "Willkommen",
    signIn: "Melden Sie sich an",
    or: " oder ",
    signUp: "erstellen Sie ein Konto",
    signedInAs: (name: string) => `Angemeldet als ${name}.`,
    account: "Ihr Konto",
  },
  errorPage: {
    statuses: {
      "403": "Verboten",
      "404": "Nicht gefunden",
    },
    title: "Etwas ist schiefgelaufen",
    error: "Fehler",
    notShown:
      "Die Seite konnte nicht angezeigt werden. Versuchen Sie es erneut oder gehen Sie zum Anfang zurück.",
    back: "Zurück zum Anfang",
    crossSite:
      "Dieses Formular wurde von einer anderen Website gesendet und daher nicht angenommen. Öffnen Sie die Seite auf dieser Website und senden Sie es von dort.",
  },
  signIn: {
    title: "Anmelden",
    email: "E-Mail-Adresse",
    password: "Passwort",
    submit: "Anmelden",
    forgot: "Passwort vergessen?",
    createAccount: "Konto erstellen",
  },
  signUp: {
    title: "Konto erstellen",
    name: "Name",
    email: "E-Mail-Adresse",
    password: "Passwort",
    submit: "Konto erstellen",
    haveAccount: "Sie haben schon ein Konto?",
  },
  forgotPassword: {
    title: "Passwort vergessen?",
    email: "E-Mail-Adresse",
    submit: "Link zum Zurücksetzen senden",
    sent: "Wenn ein Konto diese Adresse verwendet, ist ein Link zum Zurücksetzen unterwegs.",
  },
  resetPassword: {
    title: "Neues Passwort wählen",
    invalid: "Dieser Link zum Zurücksetzen ist ungültig oder abgelaufen.",
    newPassword: "Neues Passwort",
    submit: "Speichern",
  },
  verifyEmail: {
    title: "Bestätigung der E-Mail-Adresse",
    done: "Ihre E-Mail-Adresse ist bestätigt.",
    continue: "Weiter",
    incomplete: "Dieser Link ist unvollständig.",
    invalid: "Dieser Link ist ungültig.",
    linkErrors: {
      token_expired: "Dieser Link ist abgelaufen. Melden Sie sich an und fordern Sie einen neuen an.",
      invalid_token: "Dieser Link ist ungültig. Verwenden Sie den zuletzt erhaltenen Link.",
      user_not_found: "Das Konto dieses Links existiert nicht mehr.",
      unauthorized:
        "Dieser Link gehört zu einem anderen Konto. Melden Sie sich ab und öffnen Sie ihn erneut.",
      email_can_not_be_updated: "Diese E-Mail-Adresse wird bereits verwendet.",
    },
  },
  twoFactor: {
    title: "Bestätigung in zwei Schritten",
    code: "Code aus Ihrer Authenticator-App",
    trust: "Diesem Gerät vertrauen",
    submit: "Bestätigen",
  },
  invitation: {
    title: "Der Organisation beitreten",
    accept: "Einladung annehmen",
  },
  account: {
    title: "Ihr Konto",
    signedInAs: (name: string, email: string) => `Angemeldet als ${name} (${email})`,
    notVerified: " — E-Mail-Adresse noch nicht bestätigt",
    more: "Ihre Einstellungen",
    twoFactor: "Bestätigung in zwei Schritten",
    apiKeys: "API-Schlüssel",
    organizations: "Organisationen",
    signOut: "Abmelden",
  },
  twoFactorSettings: {
    title: "Bestätigung in zwei Schritten",
    on: "Die Bestätigung in zwei Schritten ist aktiviert.",
    off: "Die Bestätigung in zwei Schritten ist deaktiviert.",
    password: "Passwort",
    enable: "Bestätigung in zwei Schritten einrichten",
    disable: "Bestätigung in zwei Schritten deaktivieren",
    scan: "Fügen Sie dieses Konto Ihrer Authenticator-App hinzu: Öffnen Sie den Link auf Ihrem Telefon oder geben Sie den Schlüssel von Hand ein.",
    openInApp: "In der Authenticator-App öffnen",
    secret: "Schlüssel:",
    backupCodes: "Backup-Codes",
    backupCodesOnce:
      "Speichern Sie diese Codes jetzt: Sie werden nur einmal angezeigt. Wenn Sie Ihr Telefon verlieren, meldet Sie jeder Code einmal an.",
    code: "Code aus der App",
    confirm: "Bestätigung in zwei Schritten aktivieren",
    done: {
      enabled: "Die Bestätigung in zwei Schritten ist jetzt aktiviert.",
      disabled: "Die Bestätigung in zwei Schritten ist jetzt deaktiviert.",
    },
    back: "Zurück zu Ihrem Konto",
  },
  apiKeys: {
    title: "API-Schlüssel",
    none: "Noch keine API-Schlüssel.",
    unnamed: "(ohne Namen)",
    createdOn: (date: string) => `erstellt am ${date}`,
    revoke: "Widerrufen",
    created: "Ihr neuer Schlüssel. Kopieren Sie ihn jetzt: Er wird nicht noch einmal angezeigt.",
    createTitle: "Schlüssel erstellen",
    name: "Name",
    create: "Schlüssel erstellen",
    back: "Zurück zu Ihrem Konto",
  },
  organizations: {
    title: "Organisationen",
    none: "Sie sind noch in keiner Organisation Mitglied.",
    createTitle: "Organisation erstellen",
    name: "Name der Organisation",
    slug: "URL-Name (Slug)",
    slugHint: "Kleinbuchstaben, Ziffern, - _ und .; wird in Adressen verwendet.",
    create: "Organisation erstellen",
    back: "Zurück zu Ihrem Konto",
  },
  organization: {
    notFound: "Diese Organisation existiert nicht, oder Sie sind nicht ihr Mitglied.",
    members: "Mitglieder",
    you: "Sie",
    roles: {
      owner: "Inhaber",
      admin: "Administrator",
      member: "Mitglied",
    },
    pending: "Offene Einladungen",
    invite: "Mitglied einladen",
    email: "E-Mail-Adresse",
    role: "Rolle",
    inviteSubmit: "Einladung senden",
    invited: (email: string) => `Einladung an ${email} gesendet.`,
    leave: "Organisation verlassen",
    back: "Alle Organisationen",
  },
  devOutbox: {
    title: "Entwicklungs-Postausgang",
    intro: "E-Mails, die die App in der Entwicklung gesendet hat, neueste zuerst. An niemanden verschickt.",
    none: "Noch keine E-Mails.",
    to: (address: string) => `An ${address}`,
  },
};
