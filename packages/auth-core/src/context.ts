import type { ResolvedOptions } from "./config/options.ts";
import type { Collections } from "./db/collections.ts";
import type { UserDoc } from "./db/documents.ts";
import type { ProviderRegistry } from "./features/social/providers/index.ts";
import type { OriginMatcher } from "./http/origins.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import type { Mailer } from "./mail/mailer.ts";

/**
 * Removes one feature's own data of a user being deleted (features/deletion runs them after the
 * user row is gone). Each feature exports its remover on its face; create-auth.ts lists them, so
 * deletion depends on no feature it cleans up after (docs/architecture.md, "Feature faces").
 */
export type UserDataRemover = (auth: AuthContext, userId: UserDoc["_id"]) => Promise<void>;

export interface CookieNames {
  sessionToken: string;
  sessionData: string;
  dontRemember: string;
}

/** Everything one `createAuth` instance owns; passed down explicitly, never global. */
export interface AuthContext {
  options: ResolvedOptions;
  collections: Collections;
  mailer: Mailer;
  origins: OriginMatcher;
  cookies: CookieNames;
  secureCookies: boolean;
  /** Origin + basePath used to build links in mails, e.g. `http://localhost:3000/api/auth`. */
  apiURL: string;
  /** The configured social providers (built at createAuth: a config mistake fails at startup). */
  providers: ProviderRegistry;
  /**
   * The rate limiter kept in MongoDB, one per instance (it remembers which slots it handed out):
   * the per-key API-key limit always uses it, HTTP requests when `rateLimit.storage` is "database".
   */
  sharedRateLimiter: RateLimiter;
  /** In order: what deleting a user removes of each other feature's data (see UserDataRemover). */
  userDataRemovers: readonly UserDataRemover[];
  now(): Date;
}
