import type { ResolvedOptions } from "./config/options.ts";
import type { TwoFactorRedirect } from "./contracts/two-factor.ts";
import type { Collections } from "./db/collections.ts";
import type { UserDoc } from "./db/documents.ts";
import type { EventSource } from "./db/event-source.ts";
import type { ObjectId } from "./db/ids.ts";
import type { OrganizationListings, UserListings } from "./db/listing-cache.ts";
import type { MailOutbox } from "./features/mail-outbox/types.ts";
import type { ProviderRegistry } from "./features/social/providers/index.ts";
import type { VerifierCache } from "./features/sso/verifier-cache.ts";
import type { CookieJar } from "./http/cookie-jar.ts";
import type { OriginMatcher } from "./http/origins.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import type { Mailer } from "./mail/mailer.ts";

/**
 * Removes one feature's own data of a user being deleted (features/deletion runs them after the
 * user row is gone). Each feature exports its remover on its face; create-auth.ts lists them, so
 * deletion depends on no feature it cleans up after (docs/architecture.md, "Feature faces").
 */
type UserDataRemover = (auth: AuthContext, userId: UserDoc["_id"]) => Promise<void>;

export interface CookieNames {
  sessionToken: string;
  sessionData: string;
  dontRemember: string;
}

/**
 * The step of the session pipeline (features/session/establish.ts) that another feature owns: the
 * second-factor gate (features/two-factor). Two-factor gets sessions through that pipeline, so
 * session cannot import it; createAuth hands the gate over instead. (The ban check is the user's,
 * features/users/ban.ts, which session imports.)
 */
interface SessionSteps {
  /** Null: mint the session; otherwise a challenge is stored and its cookie set: answer it instead. */
  gateSessionMint(
    ctx: { auth: AuthContext; cookies: CookieJar },
    user: UserDoc,
    options: { rememberMe: boolean },
  ): Promise<TwoFactorRedirect | null>;
}

/** Everything one `createAuth` instance owns; passed down explicitly, never global. */
export interface AuthContext {
  options: ResolvedOptions;
  collections: Collections;
  mailer: Mailer;
  /** The durable outbox long-lived mails are queued in (features/mail-outbox). */
  mailOutbox: MailOutbox;
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
  sessionSteps: SessionSteps;
  /**
   * What a proven address does to other features' data: the mailbox owner wins over provider
   * identities linked while it was unproven (features/social, docs/security.md). Handed in by
   * create-auth so verification need not import social, which imports verification's tokens.
   */
  onEmailProven(auth: AuthContext, user: UserDoc): Promise<void>;
  /**
   * After a write of a user's fields a member list shows (name, email, image) or of the user's
   * removal: the organizations listing the user bump their listing versions. Handed in by
   * create-auth (features/organization) so the users store, which organization imports, need not
   * import it.
   */
  onMemberUserChanged(collections: Collections, userId: ObjectId): Promise<void>;
  /**
   * Whether the organization has an SSO connection turned on (features/sso): requiring SSO for a
   * domain needs one to send its people to. Handed in by create-auth so sso-domains need not import
   * sso, which imports it.
   */
  hasSsoConnection(collections: Collections, organizationId: ObjectId): Promise<boolean>;
  /**
   * The owners whose writes carry events (features/events): each feature's face exports its own,
   * createAuth lists them, and the repair pass relays what a crash left in any of them.
   */
  eventSources: readonly EventSource[];
  /** In order: what deleting a user removes of each other feature's data (see UserDataRemover). */
  userDataRemovers: readonly UserDataRemover[];
  /** get-full-organization's listings (organization.listingCache); null when turned off. */
  organizationListings: OrganizationListings | null;
  /** Admin list-users' pages (admin.listingCache); null when turned off. */
  userListings: UserListings | null;
  /** SSO connections' id-token verifiers, each with its JWKS cache (features/sso/oidc-client.ts). */
  ssoVerifiers: VerifierCache;
  now(): Date;
}
