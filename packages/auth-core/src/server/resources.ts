import { join } from "node:path";
import type { DevDatabase } from "@tessera/dev-db";
import type { AuthOptions } from "../config/options.ts";
import { createDevOutbox, type DevOutbox } from "../mail/outbox.ts";
import type { SmtpMailer } from "../mail/smtp.ts";
import { DEV_SECRET, resolveDbName, ServerConfigError, type ServerEnv } from "./env-config.ts";
import type { ConfigOptions } from "./load-config.ts";

/**
 * The standalone server promises a 503 within 2 s while its database is down (docs/security.md, "A
 * database that fails or hangs"). A request waits out the driver's server selection and
 * is then answered, so the selection timeout must leave room for the rest of the request on a busy
 * machine. With the library's 2000 ms the refusals came at 2.0–2.6 s under load, with 1500 ms up to
 * 2.6 s; with 1000 ms up to 2.07 s on two cores with three busy loops beside (CI saw 2.0–2.2 s
 * while other suites ran); with 500 ms, 1.00–1.02 s there (tests/reliability, the database-down
 * scenario). A selection timeout rides over no election either way (MongoDB's take seconds).
 * @internal Exported for its unit test (resources.test.ts).
 */
export const SERVER_SELECTION_TIMEOUT_MS = 500;

/** What the server started and must stop on shutdown (never a database it was only given). */
export interface OwnedResources {
  database: DevDatabase | null;
  smtp: SmtpMailer | null;
  outbox: DevOutbox | null;
}

interface BuildContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  printMail: (line: string) => void;
}

/**
 * `createAuth` options from the environment. Whatever the config module sets itself (database,
 * secret, mailer) is not built here, so a config that brings its own database starts no dev database.
 * Started resources are recorded in `owned` as they start, so a later failure can release them.
 */
export async function buildAuthOptions(
  settings: ServerEnv,
  custom: ConfigOptions,
  owned: OwnedResources,
  context: BuildContext,
): Promise<Partial<AuthOptions>> {
  const options: Partial<AuthOptions> = {
    secret: resolveSecret(settings, custom, context.log),
    trustedOrigins: settings.trustedOrigins,
  };
  if (settings.baseURL) options.baseURL = settings.baseURL;
  if (!custom.mailer) {
    options.mailer = await createMailer(settings, owned, context.printMail);
    // The SMTP URL usually carries a password: name the transport, never the URL.
    context.log(
      owned.smtp
        ? `tessera: mail via SMTP, from ${settings.mailFrom}`
        : "tessera: SMTP_URL not set: mails are printed to stdout (dev outbox)",
    );
  }
  if (!custom.database) {
    const uri = settings.mongoUri ?? (await startLocalDatabase(owned, context)).uri;
    options.database = {
      uri,
      dbName: resolveDbName(uri, settings.dbName),
      serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
    };
  }
  return options;
}

/**
 * docs/decisions/: the secret is required in production. A secret from the config module counts too
 * (it merges over the environment). Elsewhere a fixed dev secret keeps `pnpm serve` zero-config, and
 * the warning says what it costs.
 */
function resolveSecret(settings: ServerEnv, custom: ConfigOptions, log: (line: string) => void): string {
  const secret = custom.secret ?? settings.secret;
  if (secret) return secret;
  if (settings.isProduction) {
    throw new ServerConfigError(
      "TESSERA_SECRET is required when NODE_ENV=production. Set it to a long random value, e.g. `openssl rand -base64 32`.",
    );
  }
  log(
    [
      "",
      "!!! WARNING: TESSERA_SECRET is not set: using a fixed development secret.",
      "!!! Anyone can forge sessions and tokens signed with it. Never expose this server;",
      "!!! set TESSERA_SECRET (e.g. `openssl rand -base64 32`) before deploying.",
      "",
    ].join("\n"),
  );
  return DEV_SECRET;
}

async function createMailer(
  settings: ServerEnv,
  owned: OwnedResources,
  printMail: (line: string) => void,
): Promise<SmtpMailer | DevOutbox> {
  if (settings.smtpUrl) {
    // Loaded only here: without SMTP_URL, nodemailer (~5 MB resident) is never loaded.
    const { createSmtpMailer } = await import("../mail/smtp.ts");
    owned.smtp = createSmtpMailer({ url: settings.smtpUrl, from: settings.mailFrom });
    return owned.smtp;
  }
  owned.outbox = createDevOutbox({ print: printMail });
  return owned.outbox;
}

/**
 * No MONGODB_URI: the embedded local database. Its data lives in `.tessera/data` under the working
 * directory so accounts survive a restart (FerretDB backend; mongodb-memory-server keeps nothing).
 */
async function startLocalDatabase(owned: OwnedResources, context: BuildContext): Promise<DevDatabase> {
  // Loaded only here: with MONGODB_URI set, mongodb-memory-server (~12 MB resident) is never loaded.
  const { startDevDatabase } = await importDevDb();
  owned.database = await startDevDatabase({
    log: context.log,
    env: context.env,
    dataDir: join(context.cwd, ".tessera", "data"),
  });
  return owned.database;
}

/**
 * @tessera/dev-db is TypeScript source. Under tsx (tests, `tsx main.ts`) it imports as it is; the
 * bundled server (`pnpm serve`, dist-serve/) runs on plain node, so it registers tsx first — only
 * here, when there is no MONGODB_URI, since tsx keeps a loader thread (~40 MB) alive. The failed
 * import is cached by URL, hence the retry under a query string.
 */
async function importDevDb(): Promise<typeof import("@tessera/dev-db")> {
  try {
    return await import("@tessera/dev-db");
  } catch (error) {
    const code = (error as { code?: string }).code;
    // An app installs the core alone (dev-db is an optional peer): say what to do instead.
    if (code === "ERR_MODULE_NOT_FOUND" && String(error).includes("@tessera/dev-db")) {
      throw new ServerConfigError(
        "No MONGODB_URI is set and the embedded database is not installed: set MONGODB_URI, or `npm install @tessera/dev-db` for a local development database",
      );
    }
    if (code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
    const { register } = await import("tsx/esm/api");
    register();
    return (await import(
      `${import.meta.resolve("@tessera/dev-db")}?tsx`
    )) as typeof import("@tessera/dev-db");
  }
}
