/**
 * The one auth instance of the app, created on first use: `auth.handler` answers /api/auth/* and
 * loaders and actions call `auth.api.*`. The database is MONGODB_URI when set, else the embedded
 * development database (@tessera/dev-db), kept in `.data/` so the demo data survives restarts.
 */
import { Resolver } from "node:dns/promises";
import { resolve } from "node:path";
import {
  type Auth,
  type AuthOptions,
  createAuth,
  createDevOutbox,
  createSmtpMailer,
  type DevOutbox,
  type Mailer,
} from "@tessera/auth-core";
import { createRemixAuth } from "@tessera/auth-core/remix";
import { startDevDatabase } from "@tessera/dev-db";
import { MongoClient } from "mongodb";
import { type AppEnv, readAppEnv } from "./lib/env.server";
import { seedDemoData } from "./seed.server";

export interface AppAuth {
  auth: Auth;
  /** The dev outbox (kept in `.data/outbox.jsonl`) when mails are not sent over SMTP (development only), else null. */
  outbox: DevOutbox | null;
  /** How mails leave the app (lib/env.server.ts): server.js says so at start. */
  mail: AppEnv["mail"];
  /** Demo accounts created by this start, or null when the database already had users. */
  seeded: Awaited<ReturnType<typeof seedDemoData>>;
  /** Where the data is, for the banner (and the `tessera` CLI's --uri/--db); credentials left out. */
  database: { uri: string; name: string };
  close(): Promise<void>;
}

// Survives Vite's module reloads in development: one database and one auth per process.
const holder = globalThis as typeof globalThis & { __tesseraDemo?: Promise<AppAuth> };

export function getAppAuth(): Promise<AppAuth> {
  holder.__tesseraDemo ??= createAppAuth();
  return holder.__tesseraDemo;
}

export async function getAuth(): Promise<Auth> {
  return (await getAppAuth()).auth;
}

/** The core's Remix helpers on this app's auth: the /api/auth/* route and the session guards. */
export const remix = createRemixAuth(getAuth);

async function createAppAuth(): Promise<AppAuth> {
  const env = readAppEnv(process.env);
  const database = await startDevDatabase({
    dataDir: env.mongoUri ? undefined : resolve(env.dataDir, "db"),
    log: (line) => console.error(`[remix-demo] ${line}`),
  });
  const client = new MongoClient(database.uri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(env.dbName ?? (database.backend === "env" ? undefined : "tessera_demo"));
  const outbox =
    env.mail === "outbox"
      ? createDevOutbox({ print: () => {}, file: resolve(env.dataDir, "outbox.jsonl") })
      : null;
  const delivery: Mailer = outbox ?? createDelivery(env);
  // The demo's people are marked verified right after their sign-up: their verification mails
  // would only be noise in the outbox (or mail to made-up addresses over SMTP).
  let seeding = false;
  const mailer: Mailer = {
    send: (message) =>
      seeding && message.kind === "verify-email" ? Promise.resolve() : delivery.send(message),
  };
  const options: AuthOptions = {
    database: db,
    secret: env.secret,
    baseURL: env.baseURL,
    appName: "Tessera demo",
    mailer,
    emailVerification: { sendOnSignUp: true, autoSignInAfterVerification: true },
    user: {
      changeEmail: { enabled: true },
      deleteUser: { enabled: true, sendDeleteAccountVerification: true },
    },
    organization: { teams: { enabled: true } },
    // Sign-in without a password (docs/passwordless.md): one mail holds a link and a code. The link
    // opens the app's own page (routes/sign-in_.confirm.tsx), which names the account and signs in
    // only when its button is pressed: mail scanners that open links spend nothing.
    magicLink: { enabled: true, confirmURL: "/sign-in/confirm" },
    emailOTP: { enabled: true },
    // Passkeys for the base URL's host (docs/passkeys.md): sign-in, passkey-first sign-up, account list.
    passkey: {},
    // A key made on /account/api-keys signs its requests in (x-api-key header): what the page shows.
    apiKey: { enableSessionForAPIKeys: true },
    socialProviders: env.socialProviders,
    rateLimit: { enabled: env.rateLimit },
    // Organizations' single sign-on (Security → Domains, Single sign-on); the core logs a warning
    // when private addresses are allowed.
    outbound: { allowPrivateAddresses: env.allowPrivateAddresses },
    sso: env.dnsServer ? { domainVerification: { resolver: createResolver(env.dnsServer) } } : {},
    // Admin → Webhooks and Organization → Webhooks; receivers on private addresses (a test's on
    // 127.0.0.1) only with DEMO_ALLOW_PRIVATE_ADDRESSES=1 (outbound above).
    webhooks: { enabled: true },
    logger: {
      info: () => {},
      warn: (message, detail) => console.warn(`[tessera] ${message}`, detail ?? ""),
      error: (message, detail) => console.error(`[tessera] ${message}`, detail ?? ""),
    },
  };
  const auth = createAuth(options);
  await auth.migrate();
  seeding = true;
  const seeded = env.seed ? await seedDemoData(auth).finally(() => (seeding = false)) : null;
  seeding = false;
  return {
    auth,
    outbox,
    mail: env.mail,
    seeded,
    database: { uri: database.uri.replace(/\/\/[^@/]*@/, "//"), name: db.databaseName },
    async close() {
      await auth.close();
      await client.close();
      if ("close" in delivery && typeof delivery.close === "function") delivery.close();
      await database.stop();
    },
  };
}

/** A resolver asking only `server` (host:port) for the TXT records of domain proofs. */
function createResolver(server: string): Resolver {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([server]);
  return resolver;
}

/** SMTP when SMTP_URL is set; with TESSERA_MAIL=disabled a mailer that drops each mail and says so. */
function createDelivery(env: AppEnv): Mailer {
  if (env.mail === "smtp" && env.smtpUrl) return createSmtpMailer({ url: env.smtpUrl, from: env.mailFrom });
  return {
    send: async (message) => {
      console.warn(`[remix-demo] mail not sent (TESSERA_MAIL=disabled): ${message.kind}`);
    },
  };
}
