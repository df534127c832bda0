/**
 * The words of the app's pages in English: `tessera init --language en` wrote this file from
 * templates/strings/ (one file a language, the same keys in each); it is yours to change. LANG is
 * the pages' language: <html lang> and the core's error messages (app/auth.server.ts errorMessage).
 */
export const LANG = "en";

export const strings = {
  common: {
    tooManyAttempts: (wait: number) =>
      `Too many attempts. Try again in ${wait} ${wait === 1 ? "second" : "seconds"}.`,
    somethingWrong: "Something went wrong. Try again.",
  },
  home: {
    title: "Welcome",
    signIn: "Sign in",
    or: " or ",
    signUp: "create an account",
    signedInAs: (name: string) => `Signed in as ${name}.`,
    account: "Your account",
  },
  errorPage: {
    statuses: {
      "403": "Forbidden",
      "404": "Not Found",
    },
    title: "Something went wrong",
    error: "Error",
    notShown: "The page could not be shown. Try again, or go back to the start.",
    back: "Back to the start",
    crossSite:
      "This form was sent from another site, so it was not accepted. Open the page on this site and send it from there.",
  },
  signIn: {
    title: "Sign in",
    email: "Email",
    password: "Password",
    submit: "Sign in",
    forgot: "Forgot your password?",
    createAccount: "Create an account",
  },
  signUp: {
    title: "Create an account",
    name: "Name",
    email: "Email",
    password: "Password",
    submit: "Create account",
    haveAccount: "Already have an account?",
  },
  forgotPassword: {
    title: "Forgot your password?",
    email: "Email",
    submit: "Send a reset link",
    sent: "If that address has an account, a reset link is on its way.",
  },
  resetPassword: {
    title: "Choose a new password",
    invalid: "This reset link is invalid or has expired.",
    newPassword: "New password",
    submit: "Save",
  },
  verifyEmail: {
    title: "Email verification",
    done: "Your email address is verified.",
    continue: "Continue",
    incomplete: "This link is incomplete.",
    invalid: "This link is not valid.",
    linkErrors: {
      token_expired: "This link has expired. Sign in and ask for a new one.",
      invalid_token: "This link is not valid. Use the latest link you received.",
      user_not_found: "The account of this link no longer exists.",
      unauthorized: "This link belongs to another account. Sign out and open it again.",
      email_can_not_be_updated: "That email address is already in use.",
    },
  },
  twoFactor: {
    title: "Two-factor authentication",
    code: "Code from your authenticator app",
    trust: "Trust this device",
    submit: "Verify",
  },
  invitation: {
    title: "Join the organization",
    accept: "Accept the invitation",
  },
  account: {
    title: "Your account",
    signedInAs: (name: string, email: string) => `Signed in as ${name} (${email})`,
    notVerified: " — email not verified yet",
    more: "Your settings",
    twoFactor: "Two-factor authentication",
    apiKeys: "API keys",
    organizations: "Organizations",
    signOut: "Sign out",
  },
  twoFactorSettings: {
    title: "Two-factor authentication",
    on: "Two-factor authentication is on.",
    off: "Two-factor authentication is off.",
    password: "Password",
    enable: "Set up two-factor authentication",
    disable: "Turn off two-factor authentication",
    scan: "Add this account to your authenticator app: open the link on your phone, or enter the key by hand.",
    openInApp: "Open in the authenticator app",
    secret: "Key:",
    backupCodes: "Backup codes",
    backupCodesOnce:
      "Save these codes now: they are shown only once. Each one signs you in once if you lose your phone.",
    code: "Code from the app",
    confirm: "Turn on two-factor authentication",
    done: {
      enabled: "Two-factor authentication is now on.",
      disabled: "Two-factor authentication is now off.",
    },
    back: "Back to your account",
  },
  apiKeys: {
    title: "API keys",
    none: "No API keys yet.",
    unnamed: "(no name)",
    createdOn: (date: string) => `created ${date}`,
    revoke: "Revoke",
    created: "Your new key. Copy it now: it will not be shown again.",
    createTitle: "Create a key",
    name: "Name",
    create: "Create the key",
    back: "Back to your account",
  },
  organizations: {
    title: "Organizations",
    none: "You are not a member of any organization yet.",
    createTitle: "Create an organization",
    name: "Organization name",
    slug: "URL name (slug)",
    slugHint: "Lowercase letters, digits, - _ and .; used in addresses.",
    create: "Create the organization",
    back: "Back to your account",
  },
  organization: {
    notFound: "This organization does not exist, or you are not a member of it.",
    members: "Members",
    you: "you",
    roles: {
      owner: "Owner",
      admin: "Admin",
      member: "Member",
    },
    pending: "Pending invitations",
    invite: "Invite a member",
    email: "Email",
    role: "Role",
    inviteSubmit: "Send the invitation",
    invited: (email: string) => `Invitation sent to ${email}.`,
    leave: "Leave the organization",
    back: "All organizations",
  },
  devOutbox: {
    title: "Dev outbox",
    intro: "Mails the app sent while in development, newest first. Not sent to anyone.",
    none: "No mails yet.",
    to: (address: string) => `To ${address}`,
  },
};
