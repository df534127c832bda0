/**
 * The app's one Tessera instance (written by `tessera init`), created on the first request.
 * `remix.handler` answers /api/auth/* (routes/api.auth.$.ts); loaders and actions call `auth.api.*`
 * with the request's headers.
 *
 * The database is MONGODB_URI when set. In development without it, the embedded database
 * (@tessera/dev-db) is started here, its data and port kept in `.data/db`, and mails go to the dev
 * outbox (/dev/outbox, `.data/outbox.jsonl`). Production needs MONGODB_URI, and SMTP_URL (or a
 * `mailer` in tessera.config.ts) unless TESSERA_MAIL=disabled says that losing every mail is
 * intended; without them it refuses to start, as the demo app does.
 */
import { resolve } from "node:path";
import {
  type Auth,
  chooseMailDelivery,
  createAuth,
  createDevOutbox,
  createSmtpMailer,
  type DevOutbox,
  isAuthError,
  MAIL_DISABLED_WARNING,
  type Mailer,
} from "@tessera/auth-core";
import { catalogueMessage, languageFromTag } from "@tessera/auth-core/i18n";
import { createRemixAuth } from "@tessera/auth-core/remix";
import { LANG, strings } from "~/strings";
import options from "../tessera.config";

interface AppAuth {
  auth: Auth;
  /** Where mails go in development without a mailer of your own; null in production. */
  outbox: DevOutbox | null;
}

// Survives Vite's module reloads in development: one database and one auth per process.
const holder = globalThis as typeof globalThis & {
  __tessera?: Promise<AppAuth>;
  __tesseraStart?: () => Promise<AppAuth>;
};
// server.mjs starts the auth before it says ready (the database runs, a bad setting stops the start).
holder.__tesseraStart = getAppAuth;

/**
 * A setting the app cannot start with: server.mjs prints its message alone (no stack) and exits 1.
 * Matched by name there: server.mjs cannot import this module.
 */
class AppConfigError extends Error {
  override name = "AppConfigError";
}

export function getAppAuth(): Promise<AppAuth> {
  holder.__tessera ??= createAppAuth();
  return holder.__tessera;
}

export async function getAuth(): Promise<Auth> {
  return (await getAppAuth()).auth;
}

const isProduction = process.env.NODE_ENV === "production";

async function createAppAuth(): Promise<AppAuth> {
  const dbName = "dbName" in options.database ? options.database.dbName : undefined;
  let uri = process.env.MONGODB_URI;
  if (!uri && isProduction)
    throw new AppConfigError(
      "MONGODB_URI must be set in production: the MongoDB server's URI (development starts a database itself).",
    );
  const mailer = options.mailer ?? mailerFromEnvironment();
  if (!uri) {
    // A development dependency: imported only when it is used.
    const { startDevDatabase } = await import("@tessera/dev-db");
    const database = await startDevDatabase({ dataDir: resolve(".data", "db") });
    uri = database.uri;
  }
  const outbox = mailer ? null : createDevOutbox({ file: resolve(".data", "outbox.jsonl") });
  const auth = createAuth({
    ...options,
    database: { uri, dbName: dbName ?? "app" },
    ...(outbox ? { mailer: outbox } : {}),
    ...(mailer ? { mailer } : {}),
  });
  await auth.migrate();
  return { auth, outbox };
}

/**
 * The core's rule (chooseMailDelivery, shared with the demo app): SMTP when SMTP_URL is set (from
 * TESSERA_MAIL_FROM), nowhere with TESSERA_MAIL=disabled, and production refuses to run without
 * either; never into the log, where a link would let whoever reads it in (docs/security.md).
 * Undefined: the dev outbox.
 */
function mailerFromEnvironment(): Mailer | undefined {
  const chosen = chooseMailDelivery({
    mail: process.env.TESSERA_MAIL,
    smtpUrl: process.env.SMTP_URL,
    isProduction,
  });
  if (chosen.refusal !== undefined) throw new AppConfigError(chosen.refusal);
  if (chosen.delivery === "outbox") return undefined;
  if (chosen.delivery === "smtp")
    return createSmtpMailer({
      url: process.env.SMTP_URL?.trim() ?? "",
      from: process.env.TESSERA_MAIL_FROM?.trim() || "no-reply@localhost",
    });
  console.warn(MAIL_DISABLED_WARNING);
  return {
    send: async (message) => {
      console.warn(`mail not sent (TESSERA_MAIL=disabled): ${message.kind}`);
    },
  };
}

/**
 * The core's Remix helpers on this auth: `remix.handler` answers /api/auth/* (routes/api.auth.$.ts),
 * `remix.getSession` / `requireSession` read the signed-in user, `remix.redirectWithCookies` carries
 * an `auth.api` answer's cookies to the browser.
 */
export const remix = createRemixAuth(getAuth, { signedInPath: "/account" });

/** The core's catalogue messages in the pages' language (app/strings.ts LANG). */
const language = languageFromTag(LANG) ?? "ENG";

/**
 * The catalogue message of a refused call in the pages' language (@tessera/auth-core/i18n; the API
 * answers English), with the wait of a rate limit (its Retry-After); anything else is logged, not
 * shown.
 */
export function errorMessage(error: unknown): string {
  const wait = isAuthError(error) ? error.details?.retryAfter : undefined;
  if (typeof wait === "number") return strings.common.tooManyAttempts(wait);
  if (isAuthError(error)) return catalogueMessage(error.code, language) ?? error.message;
  console.error(error);
  return strings.common.somethingWrong;
}
