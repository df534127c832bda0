import { type AuthOptions, type Logger, resolveOptions } from "./config/options.ts";
import type { AuthContext, CookieNames } from "./context.ts";
import { openCollections } from "./db/collections.ts";
import { connectDatabase } from "./db/connect.ts";
import { ListingCache } from "./db/listing-cache.ts";
import { CORE_MIGRATIONS, type MigrationSteps, runMigrations } from "./db/migrations/index.ts";
import { CORE_EVENT_SOURCES } from "./event-sources.ts";
import {
  assertApiKeyCallerAllowed,
  deleteUserApiKeyData,
  readApiKeySession,
} from "./features/api-key/index.ts";
import { type CleanupResult, cleanupExpired } from "./features/cleanup.ts";
import { createMailOutbox, type MailOutbox } from "./features/mail-outbox/index.ts";
import { bumpListingsOfMemberUser } from "./features/organization/index.ts";
import { deleteUserPasskeyData } from "./features/passkey/index.ts";
import { type CoreEndpoint, coreEndpoints } from "./features/registry.ts";
import { mountScim } from "./features/scim/index.ts";
import { isSessionFresh, readCachedSession, readSession } from "./features/session/index.ts";
import { clearSignInFailures } from "./features/sign-in-throttle/index.ts";
import { dropUnprovenProviderAccounts } from "./features/social/index.ts";
import { createProviders } from "./features/social/providers/index.ts";
import { createVerifierCache, hasEnabledSsoProvider } from "./features/sso/index.ts";
import { joinVerifiedDomainOrganization } from "./features/sso-domains/index.ts";
import { deleteUserTwoFactorData, gateSessionMint } from "./features/two-factor/index.ts";
import { enterEveryUser, findUserById } from "./features/users/index.ts";
import { startWebhookWorker, type WebhookWorker } from "./features/webhooks/index.ts";
import { createApi, type TypedApi } from "./http/api.ts";
import type { CallerResolvers } from "./http/caller.ts";
import type { AnyEndpoint } from "./http/define-endpoint.ts";
import { type AuthHandler, createHandler } from "./http/handler.ts";
import { createOriginMatcher } from "./http/origins.ts";
import { createDatabaseRateLimiter, createMemoryRateLimiter } from "./http/rate-limit.ts";
import { createDevOutbox } from "./mail/outbox.ts";

export interface Auth {
  /** `Request → Response` for everything under the base path (default `/api/auth`). */
  handler: AuthHandler;
  /** The server-side API: one method per endpoint, e.g. `auth.api.signInEmail({ body, headers })`. */
  api: TypedApi<CoreEndpoint>;
  /** Every endpoint definition (drives the router, the API, the client and the docs). */
  endpoints: readonly AnyEndpoint[];
  /** Runs the numbered migrations not yet applied (indexes included). Idempotent. */
  migrate(): Promise<string[]>;
  /** Removes expired sessions, verifications and rate-limit windows. Returns how many of each. */
  cleanup(): Promise<CleanupResult>;
  /**
   * This instance's webhook delivery worker (`webhooks.enabled`), started by createAuth; null when
   * webhooks are off. `runPass()` sends what is due now (tests, the CLI).
   */
  webhooks: WebhookWorker | null;
  /**
   * This instance's share of the mail outbox (features/mail-outbox): `runPass()` sends the queued
   * mails that are due now, `settle()` waits for the sends under way (tests, the CLI).
   */
  mail: Pick<MailOutbox, "runPass" | "settle">;
  /**
   * Waits for the event relays under way, stops the webhook and mail workers, then closes the database client
   * when `createAuth` opened it.
   */
  close(): Promise<void>;
  context: AuthContext;
}

/**
 * How http/ resolves a request's caller (it imports no feature): an API key, then the session cookie.
 * @internal Exported for http/handler.test.ts, which builds a handler on them.
 */
export const coreCallerResolvers: CallerResolvers = {
  readApiKeySession,
  assertApiKeyCallerAllowed,
  readSession,
  readCachedSession,
  isSessionFresh,
};

/**
 * What the data migrations are handed (db/ imports no feature): the owners' functions that write
 * their documents. Also operator.ts migrateStepByStep.
 */
export const coreMigrationSteps: MigrationSteps = { enterEveryUser, findUserById };

function cookieNames(prefix: string, secure: boolean): CookieNames {
  const full = (name: string) => `${secure ? "__Secure-" : ""}${prefix}.${name}`;
  return {
    sessionToken: full("session_token"),
    sessionData: full("session_data"),
    dontRemember: full("dont_remember"),
  };
}

export function createAuth(input: AuthOptions): Auth {
  const options = resolveOptions(input);
  if (options.sso.trustDeclaredDomains)
    options.logger.warn(
      "sso.trustDeclaredDomains is on: every domain an organization declares counts as verified without proof. Development and tests only (docs/security.md, Verified domains).",
    );
  if (options.outbound.allowPrivateAddresses)
    options.logger.warn(
      "outbound.allowPrivateAddresses is on: SSO discovery, webhooks and domain proofs may fetch private, loopback and link-local addresses over plain http. Development and tests only (docs/security.md, Outbound requests).",
    );
  const database = connectDatabase(options.database);
  const collections = openCollections(database.db, options.clock);
  const secureCookies = options.advanced.useSecureCookies ?? options.baseURL?.startsWith("https://") ?? false;
  const origin = options.baseURL ? new URL(options.baseURL).origin : "http://localhost:3000";
  const mailOutbox = createMailOutbox(() => context, options.mailQueue);
  const context: AuthContext = {
    options,
    collections,
    mailer: options.mailer ?? createFallbackOutbox(options.logger),
    mailOutbox,
    origins: createOriginMatcher(options.baseURL, options.trustedOrigins),
    cookies: cookieNames(options.advanced.cookiePrefix, secureCookies),
    secureCookies,
    apiURL: `${origin}${options.basePath}`,
    providers: createProviders(options, {
      fetch: globalThis.fetch,
      now: options.clock,
      timeoutMs: options.advanced.providerTimeoutMs,
    }),
    sharedRateLimiter: createDatabaseRateLimiter(collections),
    sessionSteps: { gateSessionMint },
    onEmailProven: async (auth, user) => {
      await dropUnprovenProviderAccounts(auth, user._id);
      // A verified domain with auto-join makes the proven address a member (features/sso-domains).
      await joinVerifiedDomainOrganization(auth, user);
    },
    onMemberUserChanged: bumpListingsOfMemberUser,
    hasSsoConnection: hasEnabledSsoProvider,
    eventSources: CORE_EVENT_SOURCES,
    // Deletion's steps 7 and 8 (features/deletion/service.ts): the order is that of the writes.
    userDataRemovers: [
      deleteUserTwoFactorData,
      clearSignInFailures,
      deleteUserApiKeyData,
      deleteUserPasskeyData,
    ],
    organizationListings: listingCacheOf(options.organization.listingCache),
    userListings: listingCacheOf(options.admin.listingCache),
    ssoVerifiers: createVerifierCache(),
    now: options.clock,
  };
  const endpoints = coreEndpoints;
  const rateLimiter =
    options.rateLimit.storage === "database" ? context.sharedRateLimiter : createMemoryRateLimiter();
  const webhooks = startWebhookWorker(context);
  mailOutbox.start();
  return {
    handler: createHandler(context, endpoints, rateLimiter, coreCallerResolvers, [
      mountScim(context, rateLimiter),
    ]),
    api: createApi<CoreEndpoint>(context, endpoints, coreCallerResolvers, rateLimiter),
    endpoints,
    migrate: () => runMigrations(collections, CORE_MIGRATIONS, context.now, coreMigrationSteps),
    cleanup: () => cleanupExpired(context),
    webhooks,
    mail: { runPass: mailOutbox.runPass, settle: mailOutbox.settle },
    close: async () => {
      // The relays of answered requests finish first: a graceful stop leaves no outbox for repair.
      await collections.eventHub.settle();
      await webhooks?.stop();
      await mailOutbox.stop();
      await database.close();
    },
    context,
  };
}

/**
 * Without a mailer, mails go to the development outbox, which prints them — links included — through
 * the logger. Fine on a laptop, wrong in production: say so once, loudly, at startup.
 */
function createFallbackOutbox(logger: Logger) {
  logger.warn(
    "no mailer configured: verification, reset and deletion mails (with their links) are printed to the log. Pass `mailer` (e.g. createSmtpMailer) or mail hooks in production.",
  );
  return createDevOutbox({ print: (line) => logger.info(line) });
}

function listingCacheOf<T>(
  option: false | { maxBytes: number; maxAgeSeconds: number },
): ListingCache<T> | null {
  return option ? new ListingCache<T>(option.maxBytes, option.maxAgeSeconds * 1000) : null;
}
