/**
 * The words of the app's pages in Spanish: `tessera init --language es` wrote this file from
 * templates/strings/ (one file a language, the same keys in each); it is yours to change. LANG is
 * the pages' language: <html lang> and the core's error messages (app/auth.server.ts errorMessage).
 */
export const LANG = "es";

export const strings = {
  common: {
    tooManyAttempts: (wait: number) => `Demasiados intentos. Vuelva a intentarlo en ${wait} s.`,
    somethingWrong: "Algo salió mal. Vuelva a intentarlo.",
  },
  home: {
    title: "Bienvenido",
    signIn: "Inicie sesión",
    or: " o ",
    signUp: "cree una cuenta",
    signedInAs: (name: string) => `Sesión iniciada como ${name}.`,
    account: "Su cuenta",
  },
  errorPage: {
    statuses: {
      "403": "Prohibido",
      "404": "No encontrado",
    },
    title: "Algo salió mal",
    error: "Error",
    notShown: "No se pudo mostrar la página. Vuelva a intentarlo o regrese al inicio.",
    back: "Volver al inicio",
    crossSite:
      "Este formulario se envió desde otro sitio, por lo que no se aceptó. Abra la página en este sitio y envíelo desde allí.",
  },
  signIn: {
    title: "Iniciar sesión",
    email: "Correo electrónico",
    password: "Contraseña",
    submit: "Iniciar sesión",
    forgot: "¿Olvidó su contraseña?",
    createAccount: "Crear una cuenta",
  },
  signUp: {
    title: "Crear una cuenta",
    name: "Nombre",
    email: "Correo electrónico",
    password: "Contraseña",
    submit: "Crear la cuenta",
    haveAccount: "¿Ya tiene una cuenta?",
  },
  forgotPassword: {
    title: "¿Olvidó su contraseña?",
    email: "Correo electrónico",
    submit: "Enviar un enlace para restablecerla",
    sent: "Si alguna cuenta usa esa dirección, el enlace para restablecer la contraseña ya está en camino.",
  },
  resetPassword: {
    title: "Elija una nueva contraseña",
    invalid: "Este enlace para restablecer la contraseña no es válido o ha caducado.",
    newPassword: "Nueva contraseña",
    submit: "Guardar",
  },
  verifyEmail: {
    title: "Verificación del correo electrónico",
    done: "Su dirección de correo está verificada.",
    continue: "Continuar",
    incomplete: "Este enlace está incompleto.",
    invalid: "Este enlace no es válido.",
    linkErrors: {
      token_expired: "Este enlace ha caducado. Inicie sesión y pida uno nuevo.",
      invalid_token: "Este enlace no es válido. Use el último enlace que recibió.",
      user_not_found: "La cuenta de este enlace ya no existe.",
      unauthorized: "Este enlace pertenece a otra cuenta. Cierre la sesión y ábralo de nuevo.",
      email_can_not_be_updated: "Esa dirección de correo ya está en uso.",
    },
  },
  twoFactor: {
    title: "Verificación en dos pasos",
    code: "Código de su aplicación de autenticación",
    trust: "Confiar en este dispositivo",
    submit: "Verificar",
  },
  invitation: {
    title: "Unirse a la organización",
    accept: "Aceptar la invitación",
  },
  account: {
    title: "Su cuenta",
    signedInAs: (name: string, email: string) => `Sesión iniciada como ${name} (${email})`,
    notVerified: " — correo aún sin verificar",
    more: "Sus ajustes",
    twoFactor: "Verificación en dos pasos",
    apiKeys: "Claves de API",
    organizations: "Organizaciones",
    signOut: "Cerrar sesión",
  },
  twoFactorSettings: {
    title: "Verificación en dos pasos",
    on: "La verificación en dos pasos está activada.",
    off: "La verificación en dos pasos está desactivada.",
    password: "Contraseña",
    enable: "Configurar la verificación en dos pasos",
    disable: "Desactivar la verificación en dos pasos",
    scan: "Añada esta cuenta a su aplicación de autenticación: abra el enlace en su teléfono o escriba la clave a mano.",
    openInApp: "Abrir en la aplicación de autenticación",
    secret: "Clave:",
    backupCodes: "Códigos de respaldo",
    backupCodesOnce:
      "Guarde estos códigos ahora: solo se muestran una vez. Si pierde su teléfono, cada uno le permite iniciar sesión una vez.",
    code: "Código de la aplicación",
    confirm: "Activar la verificación en dos pasos",
    done: {
      enabled: "La verificación en dos pasos ya está activada.",
      disabled: "La verificación en dos pasos ya está desactivada.",
    },
    back: "Volver a su cuenta",
  },
  apiKeys: {
    title: "Claves de API",
    none: "Todavía no hay claves de API.",
    unnamed: "(sin nombre)",
    createdOn: (date: string) => `creada el ${date}`,
    revoke: "Revocar",
    created: "Su nueva clave. Cópiela ahora: no se volverá a mostrar.",
    createTitle: "Crear una clave",
    name: "Nombre",
    create: "Crear la clave",
    back: "Volver a su cuenta",
  },
  organizations: {
    title: "Organizaciones",
    none: "Todavía no es miembro de ninguna organización.",
    createTitle: "Crear una organización",
    name: "Nombre de la organización",
    slug: "Nombre en la URL (slug)",
    slugHint: "Minúsculas, dígitos, - _ y .; se usa en las direcciones.",
    create: "Crear la organización",
    back: "Volver a su cuenta",
  },
  organization: {
    notFound: "Esta organización no existe o usted no es miembro de ella.",
    members: "Miembros",
    you: "usted",
    roles: {
      owner: "Propietario",
      admin: "Administrador",
      member: "Miembro",
    },
    pending: "Invitaciones pendientes",
    invite: "Invitar a un miembro",
    email: "Correo electrónico",
    role: "Rol",
    inviteSubmit: "Enviar la invitación",
    invited: (email: string) => `Invitación enviada a ${email}.`,
    leave: "Salir de la organización",
    back: "Todas las organizaciones",
  },
  devOutbox: {
    title: "Bandeja de salida de desarrollo",
    intro:
      "Los correos que la aplicación envió en desarrollo, los más recientes primero. No se enviaron a nadie.",
    none: "Todavía no hay correos.",
    to: (address: string) => `Para ${address}`,
  },
};
