/**
 * The app's one Tessera instance (written by `tessera init`), created on the first request.
 * `remix.handler` answers /api/auth/* (routes/api.auth.$.ts); loaders and actions call `auth.api.*`
 * with the request's headers.
 *
 * The database is MONGODB_URI when set. In development without it, the embedded database
 * (@tessera/dev-db) is started here, its data and port kept in `.data/db`, and mails go to the dev
 * outbox (/dev/outbox, `.data/outbox.jsonl`). Production needs MONGODB_URI and refuses to start without.
 */
import { resolve } from "node:path";
import { type Auth, createAuth, createDevOutbox, type DevOutbox, isAuthError } from "@tessera/auth-core";
import { createRemixAuth } from "@tessera/auth-core/remix";
import options from "../tessera.config";

interface AppAuth {
  auth: Auth;
  /** Where mails go in development without a mailer of your own; null in production. */
  outbox: DevOutbox | null;
}

// Survives Vite's module reloads in development: one database and one auth per process.
const holder = globalThis as typeof globalThis & { __tessera?: Promise<AppAuth> };

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
    throw new Error(
      "MONGODB_URI is not set: production needs a MongoDB server (development starts one itself)",
    );
  if (!uri) {
    // A development dependency: imported only when it is used.
    const { startDevDatabase } = await import("@tessera/dev-db");
    const database = await startDevDatabase({ dataDir: resolve(".data", "db") });
    uri = database.uri;
  }
  const outbox =
    isProduction || options.mailer ? null : createDevOutbox({ file: resolve(".data", "outbox.jsonl") });
  const auth = createAuth({
    ...options,
    database: { uri, dbName: dbName ?? "app" },
    ...(outbox ? { mailer: outbox } : {}),
  });
  await auth.migrate();
  return { auth, outbox };
}

/**
 * The core's Remix helpers on this auth: `remix.handler` answers /api/auth/* (routes/api.auth.$.ts),
 * `remix.getSession` / `requireSession` read the signed-in user, `remix.redirectWithCookies` carries
 * an `auth.api` answer's cookies to the browser.
 */
export const remix = createRemixAuth(getAuth);

/** The catalogue message of a refused call, for the form; anything else is logged, not shown. */
export function errorMessage(error: unknown): string {
  if (isAuthError(error)) return error.message;
  console.error(error);
  return "Something went wrong. Try again.";
}
