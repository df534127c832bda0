/**
 * Reads the standalone server's environment (docs/decisions/0003-standalone-server.md "Standalone server"). Only this folder
 * reads `process.env`: the core receives everything through `createAuth(options)` (docs/architecture.md).
 */

/** A mistake in the environment: main prints the message (no stack) and exits 1. */
export class ServerConfigError extends Error {
  override name = "ServerConfigError";
}

export interface ServerEnv {
  port: number;
  /** Interface to bind; undefined binds every interface (see `readHost`). */
  host: string | undefined;
  isProduction: boolean;
  secret: string | undefined;
  baseURL: string | undefined;
  trustedOrigins: string[];
  mongoUri: string | undefined;
  dbName: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  configPath: string | undefined;
}

export const DEFAULT_PORT = 3000;
const DEFAULT_MAIL_FROM = "Tessera <no-reply@localhost>";
/** Used only outside production, with a loud warning: sessions signed with it can be forged by anyone. */
export const DEV_SECRET = "tessera-dev-secret-NOT-FOR-PRODUCTION-0000";

export function readServerEnv(env: NodeJS.ProcessEnv): ServerEnv {
  const isProduction = env.NODE_ENV === "production";
  return {
    port: readPort(env.PORT),
    host: readHost(env.HOST, isProduction),
    isProduction,
    secret: nonEmpty(env.TESSERA_SECRET),
    baseURL: readBaseURL(env.TESSERA_BASE_URL),
    trustedOrigins: (env.TESSERA_TRUSTED_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ""),
    mongoUri: nonEmpty(env.MONGODB_URI),
    dbName: nonEmpty(env.TESSERA_DB_NAME),
    smtpUrl: nonEmpty(env.SMTP_URL),
    mailFrom: nonEmpty(env.TESSERA_MAIL_FROM) ?? DEFAULT_MAIL_FROM,
    configPath: nonEmpty(env.TESSERA_CONFIG),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** PORT=0 asks the OS for a free port (tests and the bench rely on it). */
function readPort(value: string | undefined): number {
  const text = nonEmpty(value);
  if (text === undefined) return DEFAULT_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new ServerConfigError(`PORT must be an integer from 0 to 65535 (got "${text}")`);
  }
  return port;
}

/**
 * Outside production the server binds loopback only: it runs with a dev secret and a printing
 * outbox, which must not be reachable from the network. In production (usually a container) it
 * binds every interface. HOST overrides both.
 */
function readHost(value: string | undefined, isProduction: boolean): string | undefined {
  return nonEmpty(value) ?? (isProduction ? undefined : "127.0.0.1");
}

function readBaseURL(value: string | undefined): string | undefined {
  const text = nonEmpty(value);
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ServerConfigError(`TESSERA_BASE_URL must be an absolute http(s) URL (got "${text}")`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ServerConfigError(`TESSERA_BASE_URL must be an absolute http(s) URL (got "${text}")`);
  }
  return text.replace(/\/+$/, "");
}

/**
 * The database name: TESSERA_DB_NAME, else the one in the URI's path, else "tessera" (the driver
 * would otherwise fall back to "test").
 */
export function resolveDbName(uri: string, explicit: string | undefined): string | undefined {
  if (explicit) return explicit;
  const path = uri.match(/^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]*)/)?.[1];
  return path ? undefined : "tessera";
}
