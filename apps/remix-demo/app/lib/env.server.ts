import { chooseMailDelivery, type SocialProviderOptions } from "@tessera/auth-core";

/** Used only outside production: sessions signed with it can be forged by anyone who reads this file. */
const DEV_SECRET = "remix-demo-dev-secret-NOT-FOR-PRODUCTION";

export interface AppEnv {
  isProduction: boolean;
  port: number;
  baseURL: string;
  secret: string;
  mongoUri: string | undefined;
  dbName: string | undefined;
  smtpUrl: string | undefined;
  /**
   * How mails leave the app: over SMTP (SMTP_URL), into the dev outbox (development without
   * SMTP_URL), or nowhere (TESSERA_MAIL=disabled, every mail dropped and the start says so).
   */
  mail: "smtp" | "outbox" | "disabled";
  mailFrom: string;
  dataDir: string;
  seed: boolean;
  rateLimit: boolean;
  socialProviders: Record<string, SocialProviderOptions>;
  /**
   * Test settings of single sign-on (tests/browser/sso.test.ts): DEMO_DNS_SERVER, a DNS server
   * ("127.0.0.1:5353") asked for domain proofs instead of the system's; DEMO_ALLOW_PRIVATE_ADDRESSES=1,
   * identity providers on 127.0.0.1 (docs/security.md "Outbound requests (SSRF)": never in production).
   */
  dnsServer: string | undefined;
  allowPrivateAddresses: boolean;
}

/**
 * A setting the app cannot start with; server.js prints its message alone (no stack) and exits 1.
 * Matched by name there: server.js and the built server bundle hold different copies of the class.
 */
class AppConfigError extends Error {
  override name = "AppConfigError";
}

/** The app's settings, all from the environment (README "Deploying the demo app"). */
export function readAppEnv(env: NodeJS.ProcessEnv): AppEnv {
  const isProduction = env.NODE_ENV === "production";
  const port = Number(env.PORT || 5173);
  const secret = env.TESSERA_SECRET?.trim() || (isProduction ? "" : DEV_SECRET);
  if (!secret) throw new AppConfigError("TESSERA_SECRET must be set in production (32+ random characters)");
  if (isProduction && !env.MONGODB_URI) throw new AppConfigError("MONGODB_URI must be set in production");
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  return {
    isProduction,
    port,
    baseURL: (env.TESSERA_BASE_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, ""),
    secret,
    mongoUri: env.MONGODB_URI?.trim() || undefined,
    dbName: env.TESSERA_DB_NAME?.trim() || undefined,
    smtpUrl,
    mail: readMailDelivery(env, isProduction),
    mailFrom: env.TESSERA_MAIL_FROM?.trim() || "Tessera demo <no-reply@localhost>",
    dataDir: env.DEMO_DATA_DIR?.trim() || ".data",
    seed: env.DEMO_SEED ? env.DEMO_SEED !== "0" : !isProduction,
    rateLimit: env.DEMO_RATE_LIMIT !== "0",
    socialProviders: readSocialProviders(env),
    dnsServer: env.DEMO_DNS_SERVER?.trim() || undefined,
    allowPrivateAddresses: env.DEMO_ALLOW_PRIVATE_ADDRESSES === "1",
  };
}

/** The core's rule (chooseMailDelivery), shared with the app `tessera create` writes. */
function readMailDelivery(env: NodeJS.ProcessEnv, isProduction: boolean): AppEnv["mail"] {
  const chosen = chooseMailDelivery({ mail: env.TESSERA_MAIL, smtpUrl: env.SMTP_URL, isProduction });
  if (chosen.refusal !== undefined) throw new AppConfigError(chosen.refusal);
  return chosen.delivery;
}

/** A provider is configured when both its client id and secret are set (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET). */
function readSocialProviders(env: NodeJS.ProcessEnv): Record<string, SocialProviderOptions> {
  const providers: Record<string, SocialProviderOptions> = {};
  for (const id of ["github", "google", "gitlab", "discord", "microsoft"]) {
    const clientId = env[`${id.toUpperCase()}_CLIENT_ID`];
    const clientSecret = env[`${id.toUpperCase()}_CLIENT_SECRET`];
    // <ID>_ENDPOINTS: a JSON object of endpoint overrides (a self-hosted GitLab, a test server).
    const endpoints = env[`${id.toUpperCase()}_ENDPOINTS`];
    if (clientId && clientSecret)
      providers[id] = { clientId, clientSecret, ...(endpoints ? { endpoints: JSON.parse(endpoints) } : {}) };
  }
  return providers;
}
