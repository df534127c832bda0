/**
 * The words of the app's pages in Polish: `tessera init --language pl` wrote this file from
 * templates/strings/ (one file a language, the same keys in each); it is yours to change. LANG is
 * the pages' language: <html lang> and the core's error messages (app/auth.server.ts errorMessage).
 */
export const LANG = "pl";

export const strings = {
  common: {
    tooManyAttempts: (wait: number) => `Zbyt wiele prób. Spróbuj ponownie za ${wait} s.`,
    somethingWrong: "Coś poszło nie tak. Spróbuj ponownie.",
  },
  home: {
    title: "Witaj",
    signIn: "Zaloguj się",
    or: " lub ",
    signUp: "załóż konto",
    signedInAs: (name: string) => `Zalogowano jako ${name}.`,
    account: "Twoje konto",
  },
  errorPage: {
    statuses: {
      "403": "Zabronione",
      "404": "Nie znaleziono",
    },
    title: "Coś poszło nie tak",
    error: "Błąd",
    notShown: "Nie udało się wyświetlić strony. Spróbuj ponownie lub wróć na początek.",
    back: "Wróć na początek",
    crossSite:
      "Ten formularz wysłano z innej witryny, więc nie został przyjęty. Otwórz stronę w tej witrynie i wyślij go stamtąd.",
  },
  signIn: {
    title: "Logowanie",
    email: "Adres e-mail",
    password: "Hasło",
    submit: "Zaloguj się",
    forgot: "Nie pamiętasz hasła?",
    createAccount: "Załóż konto",
  },
  signUp: {
    title: "Załóż konto",
    name: "Imię i nazwisko",
    email: "Adres e-mail",
    password: "Hasło",
    submit: "Załóż konto",
    haveAccount: "Masz już konto?",
  },
  forgotPassword: {
    title: "Nie pamiętasz hasła?",
    email: "Adres e-mail",
    submit: "Wyślij link do resetowania",
    sent: "Jeśli jakieś konto używa tego adresu, link do resetowania hasła jest już w drodze.",
  },
  resetPassword: {
    title: "Wybierz nowe hasło",
    invalid: "Ten link do resetowania jest nieprawidłowy lub wygasł.",
    newPassword: "Nowe hasło",
    submit: "Zapisz",
  },
  verifyEmail: {
    title: "Weryfikacja adresu e-mail",
    done: "Twój adres e-mail jest zweryfikowany.",
    continue: "Dalej",
    incomplete: "Ten link jest niekompletny.",
    invalid: "Ten link jest nieprawidłowy.",
    linkErrors: {
      token_expired: "Ten link wygasł. Zaloguj się i poproś o nowy.",
      invalid_token: "Ten link jest nieprawidłowy. Użyj ostatniego otrzymanego linku.",
      user_not_found: "Konto tego linku już nie istnieje.",
      unauthorized: "Ten link należy do innego konta. Wyloguj się i otwórz go ponownie.",
      email_can_not_be_updated: "Ten adres e-mail jest już używany.",
    },
  },
  twoFactor: {
    title: "Weryfikacja dwuetapowa",
    code: "Kod z aplikacji uwierzytelniającej",
    trust: "Ufaj temu urządzeniu",
    submit: "Zweryfikuj",
  },
  invitation: {
    title: "Dołącz do organizacji",
    accept: "Przyjmij zaproszenie",
  },
  account: {
    title: "Twoje konto",
    signedInAs: (name: string, email: string) => `Zalogowano jako ${name} (${email})`,
    notVerified: " — adres e-mail jeszcze niezweryfikowany",
    more: "Twoje ustawienia",
    twoFactor: "Weryfikacja dwuetapowa",
    apiKeys: "Klucze API",
    organizations: "Organizacje",
    signOut: "Wyloguj się",
  },
  twoFactorSettings: {
    title: "Weryfikacja dwuetapowa",
    on: "Weryfikacja dwuetapowa jest włączona.",
    off: "Weryfikacja dwuetapowa jest wyłączona.",
    password: "Hasło",
    enable: "Skonfiguruj weryfikację dwuetapową",
    disable: "Wyłącz weryfikację dwuetapową",
    scan: "Dodaj to konto do aplikacji uwierzytelniającej: otwórz link na telefonie albo wpisz klucz ręcznie.",
    openInApp: "Otwórz w aplikacji uwierzytelniającej",
    secret: "Klucz:",
    backupCodes: "Kody zapasowe",
    backupCodesOnce:
      "Zapisz te kody teraz: są wyświetlane tylko raz. Jeśli zgubisz telefon, każdy z nich pozwoli zalogować się jeden raz.",
    code: "Kod z aplikacji",
    confirm: "Włącz weryfikację dwuetapową",
    done: {
      enabled: "Weryfikacja dwuetapowa jest teraz włączona.",
      disabled: "Weryfikacja dwuetapowa jest teraz wyłączona.",
    },
    back: "Wróć do konta",
  },
  apiKeys: {
    title: "Klucze API",
    none: "Nie ma jeszcze kluczy API.",
    unnamed: "(bez nazwy)",
    createdOn: (date: string) => `utworzony ${date}`,
    revoke: "Unieważnij",
    created: "Twój nowy klucz. Skopiuj go teraz: nie zostanie pokazany ponownie.",
    createTitle: "Utwórz klucz",
    name: "Nazwa",
    create: "Utwórz klucz",
    back: "Wróć do konta",
  },
  organizations: {
    title: "Organizacje",
    none: "Nie należysz jeszcze do żadnej organizacji.",
    createTitle: "Utwórz organizację",
    name: "Nazwa organizacji",
    slug: "Nazwa w adresie (slug)",
    slugHint: "Małe litery, cyfry, - _ i .; używana w adresach.",
    create: "Utwórz organizację",
    back: "Wróć do konta",
  },
  organization: {
    notFound: "Ta organizacja nie istnieje albo nie jesteś jej członkiem.",
    members: "Członkowie",
    you: "ty",
    roles: {
      owner: "Właściciel",
      admin: "Administrator",
      member: "Członek",
    },
    pending: "Oczekujące zaproszenia",
    invite: "Zaproś członka",
    email: "Adres e-mail",
    role: "Rola",
    inviteSubmit: "Wyślij zaproszenie",
    invited: (email: string) => `Zaproszenie wysłano na adres ${email}.`,
    leave: "Opuść organizację",
    back: "Wszystkie organizacje",
  },
  devOutbox: {
    title: "Skrzynka nadawcza (deweloperska)",
    intro:
      "Wiadomości wysłane przez aplikację w trybie deweloperskim, od najnowszych. Nie wysłano ich do nikogo.",
    none: "Nie ma jeszcze wiadomości.",
    to: (address: string) => `Do ${address}`,
  },
};
