/**
 * The words of the app's pages in French: `tessera init --language fr` wrote this file from
 * templates/strings/ (one file a language, the same keys in each); it is yours to change. LANG is
 * the pages' language: <html lang> and the core's error messages (app/auth.server.ts errorMessage).
 */
export const LANG = "fr";

export const strings = {
  common: {
    tooManyAttempts: (wait: number) => `Trop de tentatives. Réessayez dans ${wait} s.`,
    somethingWrong: "Un problème est survenu. Réessayez.",
  },
  home: {
    title: "Bienvenue",
    signIn: "Connectez-vous",
    or: " ou ",
    signUp: "créez un compte",
    signedInAs: (name: string) => `Connecté en tant que ${name}.`,
    account: "Votre compte",
  },
  errorPage: {
    statuses: {
      "403": "Interdit",
      "404": "Introuvable",
    },
    title: "Un problème est survenu",
    error: "Erreur",
    notShown: "La page n’a pas pu être affichée. Réessayez, ou revenez à l’accueil.",
    back: "Retour à l’accueil",
    crossSite:
      "Ce formulaire a été envoyé depuis un autre site, il n’a donc pas été accepté. Ouvrez la page sur ce site et envoyez-le depuis celle-ci.",
  },
  signIn: {
    title: "Connexion",
    email: "Adresse e-mail",
    password: "Mot de passe",
    submit: "Se connecter",
    forgot: "Mot de passe oublié ?",
    createAccount: "Créer un compte",
  },
  signUp: {
    title: "Créer un compte",
    name: "Nom",
    email: "Adresse e-mail",
    password: "Mot de passe",
    submit: "Créer le compte",
    haveAccount: "Vous avez déjà un compte ?",
  },
  forgotPassword: {
    title: "Mot de passe oublié ?",
    email: "Adresse e-mail",
    submit: "Envoyer le lien",
    sent: "Si un compte utilise cette adresse, un lien de réinitialisation est en route.",
  },
  resetPassword: {
    title: "Choisissez un nouveau mot de passe",
    invalid: "Ce lien de réinitialisation n’est pas valide ou a expiré.",
    newPassword: "Nouveau mot de passe",
    submit: "Enregistrer",
  },
  verifyEmail: {
    title: "Vérification de l’adresse e-mail",
    done: "Votre adresse e-mail est vérifiée.",
    continue: "Continuer",
    incomplete: "Ce lien est incomplet.",
    invalid: "Ce lien n’est pas valide.",
    linkErrors: {
      token_expired: "Ce lien a expiré. Connectez-vous et demandez-en un nouveau.",
      invalid_token: "Ce lien n’est pas valide. Utilisez le dernier lien reçu.",
      user_not_found: "Le compte de ce lien n’existe plus.",
      unauthorized: "Ce lien appartient à un autre compte. Déconnectez-vous et ouvrez-le à nouveau.",
      email_can_not_be_updated: "Cette adresse e-mail est déjà utilisée.",
    },
  },
  twoFactor: {
    title: "Double authentification",
    code: "Code de votre application d’authentification",
    trust: "Faire confiance à cet appareil",
    submit: "Vérifier",
  },
  invitation: {
    title: "Rejoindre l’organisation",
    accept: "Accepter l’invitation",
  },
  account: {
    title: "Votre compte",
    signedInAs: (name: string, email: string) => `Connecté en tant que ${name} (${email})`,
    notVerified: " — adresse e-mail pas encore vérifiée",
    more: "Vos paramètres",
    twoFactor: "Double authentification",
    apiKeys: "Clés API",
    organizations: "Organisations",
    signOut: "Se déconnecter",
  },
  twoFactorSettings: {
    title: "Double authentification",
    on: "La double authentification est activée.",
    off: "La double authentification est désactivée.",
    password: "Mot de passe",
    enable: "Configurer la double authentification",
    disable: "Désactiver la double authentification",
    scan: "Ajoutez ce compte à votre application d’authentification : ouvrez le lien sur votre téléphone, ou saisissez la clé à la main.",
    openInApp: "Ouvrir dans l’application d’authentification",
    secret: "Clé :",
    backupCodes: "Codes de secours",
    backupCodesOnce:
      "Enregistrez ces codes maintenant : ils ne sont affichés qu’une fois. Si vous perdez votre téléphone, chacun vous connecte une fois.",
    code: "Code de l’application",
    confirm: "Activer la double authentification",
    done: {
      enabled: "La double authentification est maintenant activée.",
      disabled: "La double authentification est maintenant désactivée.",
    },
    back: "Retour à votre compte",
  },
  apiKeys: {
    title: "Clés API",
    none: "Aucune clé API pour le moment.",
    unnamed: "(sans nom)",
    createdOn: (date: string) => `créée le ${date}`,
    revoke: "Révoquer",
    created: "Votre nouvelle clé. Copiez-la maintenant : elle ne sera plus affichée.",
    createTitle: "Créer une clé",
    name: "Nom",
    create: "Créer la clé",
    back: "Retour à votre compte",
  },
  organizations: {
    title: "Organisations",
    none: "Vous ne faites encore partie d’aucune organisation.",
    createTitle: "Créer une organisation",
    name: "Nom de l’organisation",
    slug: "Identifiant d’URL (slug)",
    slugHint: "Minuscules, chiffres, - _ et . ; utilisé dans les adresses.",
    create: "Créer l’organisation",
    back: "Retour à votre compte",
  },
  organization: {
    notFound: "Cette organisation n’existe pas, ou vous n’en êtes pas membre.",
    members: "Membres",
    you: "vous",
    roles: {
      owner: "Propriétaire",
      admin: "Administrateur",
      member: "Membre",
    },
    pending: "Invitations en attente",
    invite: "Inviter un membre",
    email: "Adresse e-mail",
    role: "Rôle",
    inviteSubmit: "Envoyer l’invitation",
    invited: (email: string) => `Invitation envoyée à ${email}.`,
    leave: "Quitter l’organisation",
    back: "Toutes les organisations",
  },
  devOutbox: {
    title: "Boîte d’envoi de développement",
    intro:
      "Les e-mails envoyés par l’application en développement, les plus récents d’abord. Envoyés à personne.",
    none: "Aucun e-mail pour le moment.",
    to: (address: string) => `À ${address}`,
  },
};
