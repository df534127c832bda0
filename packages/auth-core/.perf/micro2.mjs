// packages/auth-core/src/config/options.ts
import { Db } from "mongodb";
import { z } from "zod";
var positiveSeconds = z.number().int().positive();
var fn = z.custom(
  (value) => typeof value === "function",
  "expected a function"
);
var rateLimitRuleSchema = z.union([
  z.literal(false),
  z.object({ window: positiveSeconds, max: z.number().int().positive() }).strict()
]);
var optionsSchema = z.object({
  database: z.union([
    z.instanceof(Db),
    z.object({
      uri: z.string().min(1),
      dbName: z.string().min(1).optional(),
      serverSelectionTimeoutMS: z.number().int().positive().default(2e3)
    }).strict()
  ]),
  secret: z.string().min(16, "secret must be at least 16 characters"),
  baseURL: z.url().optional(),
  basePath: z.string().regex(/^\/[\w\-/]*[^/]$/, "basePath must start with / and not end with /").default("/api/auth"),
  appName: z.string().min(1).default("Tessera"),
  trustedOrigins: z.array(z.string().min(1)).default([]),
  language: z.enum(["ENG", "RUS", "UKR", "SPA", "GERMAN", "POL", "FRA", "TURKEY"]).default("ENG"),
  emailAndPassword: z.object({
    enabled: z.boolean().default(true),
    requireEmailVerification: z.boolean().default(false),
    autoSignIn: z.boolean().default(true),
    minPasswordLength: z.number().int().min(1).default(8),
    maxPasswordLength: z.number().int().min(1).max(4096).default(128),
    resetPasswordEnabled: z.boolean().default(true),
    resetPasswordTokenExpiresIn: positiveSeconds.default(3600),
    revokeSessionsOnPasswordReset: z.boolean().default(false)
  }).strict().prefault({}),
  emailVerification: z.object({
    enabled: z.boolean().default(true),
    sendOnSignUp: z.boolean().optional(),
    sendOnSignIn: z.boolean().default(true),
    autoSignInAfterVerification: z.boolean().default(false),
    expiresIn: positiveSeconds.default(3600)
  }).strict().prefault({}),
  session: z.object({
    expiresIn: positiveSeconds.max(400 * 86400).default(7 * 86400),
    updateAge: z.number().int().min(0).default(86400),
    freshAge: z.number().int().min(0).default(86400),
    dontRememberExpiresIn: positiveSeconds.default(86400),
    disableSessionRefresh: z.boolean().default(false),
    cookieCache: z.object({ enabled: z.boolean().default(false), maxAge: positiveSeconds.default(60) }).strict().prefault({})
  }).strict().prefault({}),
  user: z.object({
    changeEmail: z.object({
      enabled: z.boolean().default(false),
      /**
       * Move the address only once the NEW address has confirmed (a verified user's current
       * address confirms first), and keep it verified. Off, the SPEC §4 flow applies: the current
       * address's link moves the address and resets it to unverified (an unverified user's
       * address moves at once). On closes the typo-takeover window of Better Auth #7196.
       * @default false
       */
      verifyNewEmailFirst: z.boolean().default(false)
    }).strict().prefault({}),
    deleteUser: z.object({
      enabled: z.boolean().default(false),
      sendDeleteAccountVerification: z.boolean().default(false),
      deleteTokenExpiresIn: positiveSeconds.default(86400)
    }).strict().prefault({})
  }).strict().prefault({}),
  rateLimit: z.object({
    enabled: z.boolean().default(true),
    window: positiveSeconds.default(10),
    max: z.number().int().positive().default(100),
    storage: z.enum(["database", "memory"]).default("database"),
    customRules: z.record(z.string(), rateLimitRuleSchema).default({})
  }).strict().prefault({}),
  advanced: z.object({
    cookiePrefix: z.string().regex(/^[\w-]+$/).default("tessera"),
    useSecureCookies: z.boolean().optional(),
    /** Proxies whose forwarded-for header is believed; without them the socket address is used. */
    trustedProxies: z.array(z.string().min(1)).default([]),
    ipAddressHeader: z.string().min(1).default("x-forwarded-for"),
    maxBodyBytes: z.number().int().positive().default(1024 * 1024)
  }).strict().prefault({}),
  mailer: z.custom((value) => typeof value?.send === "function", "expected a Mailer").optional(),
  mail: z.custom((value) => typeof value === "object" && value !== null).optional(),
  hooks: z.custom((value) => typeof value === "object" && value !== null).optional(),
  clock: fn.optional(),
  logger: z.custom(
    (value) => typeof value === "object" && value !== null && typeof value.error === "function",
    "expected a logger with info, warn and error"
  ).optional()
}).strict();
function resolveOptions(input) {
  const parsed = optionsSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`
    );
    throw new TypeError(`Invalid Tessera options \u2014 ${problems.join("; ")}`);
  }
  const options = parsed.data;
  if (options.emailAndPassword.minPasswordLength > options.emailAndPassword.maxPasswordLength) {
    throw new TypeError(
      "Invalid Tessera options \u2014 emailAndPassword.minPasswordLength exceeds maxPasswordLength"
    );
  }
  return {
    ...options,
    clock: input.clock ?? (() => /* @__PURE__ */ new Date()),
    logger: options.logger ?? consoleLogger
  };
}
var consoleLogger = {
  info: (message, detail) => console.info(`[tessera] ${message}`, detail ?? ""),
  warn: (message, detail) => console.warn(`[tessera] ${message}`, detail ?? ""),
  error: (message, detail) => console.error(`[tessera] ${message}`, detail ?? "")
};

// packages/auth-core/src/db/collections.ts
var COLLECTION_NAMES = {
  users: "users",
  sessions: "sessions",
  accounts: "accounts",
  verifications: "verifications",
  rateLimits: "rateLimits",
  migrations: "_migrations"
};
function openCollections(db) {
  return {
    db,
    users: db.collection(COLLECTION_NAMES.users),
    sessions: db.collection(COLLECTION_NAMES.sessions),
    accounts: db.collection(COLLECTION_NAMES.accounts),
    verifications: db.collection(COLLECTION_NAMES.verifications),
    rateLimits: db.collection(COLLECTION_NAMES.rateLimits),
    migrations: db.collection(COLLECTION_NAMES.migrations)
  };
}

// packages/auth-core/src/db/connect.ts
import { MongoClient, MongoServerError } from "mongodb";
function connectDatabase(config) {
  if (!("uri" in config)) return { db: config, close: async () => {
  } };
  const client = new MongoClient(config.uri, {
    appName: "tessera",
    serverSelectionTimeoutMS: config.serverSelectionTimeoutMS,
    connectTimeoutMS: config.serverSelectionTimeoutMS,
    socketTimeoutMS: 1e4,
    maxPoolSize: 50
  });
  return { db: client.db(config.dbName), close: () => client.close() };
}
function isDuplicateKeyError(error) {
  if (!(error instanceof MongoServerError)) return false;
  return error.code === 11e3 || error.code === 1 && /UNIQUE constraint failed/.test(error.message);
}
function isDatabaseUnavailableError(error) {
  if (!(error instanceof Error)) return false;
  return [
    "MongoServerSelectionError",
    "MongoNetworkError",
    "MongoNetworkTimeoutError",
    "MongoTopologyClosedError",
    "MongoNotConnectedError",
    "MongoPoolClearedError"
  ].includes(error.name);
}
function isCausedByDatabaseOutage(error) {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    if (isDatabaseUnavailableError(current)) return true;
    current = current.cause;
  }
  return false;
}

// packages/auth-core/src/db/migrations/0001-core-indexes.ts
var coreIndexes = {
  id: "0001-core-indexes",
  async up({ users, sessions, accounts, verifications, rateLimits }) {
    await users.createIndex({ email: 1 }, { unique: true, name: "email_unique" });
    await sessions.createIndex({ token: 1 }, { unique: true, name: "token_unique" });
    await sessions.createIndex({ userId: 1 }, { name: "userId" });
    await sessions.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
    await accounts.createIndex(
      { providerId: 1, accountId: 1 },
      { unique: true, name: "provider_account_unique" }
    );
    await accounts.createIndex({ userId: 1 }, { name: "userId" });
    await verifications.createIndex({ identifier: 1 }, { unique: true, name: "identifier_unique" });
    await verifications.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
    await rateLimits.createIndex({ expiresAt: 1 }, { name: "expiresAt" });
  }
};

// packages/auth-core/src/db/migrations/index.ts
var CORE_MIGRATIONS = [coreIndexes];
async function runMigrations(collections, migrations, now) {
  const done = new Set((await collections.migrations.find({}).toArray()).map((doc) => doc._id));
  const applied = [];
  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    await migration.up(collections);
    try {
      await collections.migrations.insertOne({ _id: migration.id, appliedAt: now() });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    applied.push(migration.id);
  }
  return applied;
}

// packages/auth-core/src/features/cleanup.ts
async function cleanupExpired(collections, now) {
  const expired = { expiresAt: { $lte: now } };
  const [sessions, verifications, rateLimits] = await Promise.all([
    collections.sessions.deleteMany(expired),
    collections.verifications.deleteMany(expired),
    collections.rateLimits.deleteMany(expired)
  ]);
  return {
    sessions: sessions.deletedCount,
    verifications: verifications.deletedCount,
    rateLimits: rateLimits.deletedCount
  };
}

// packages/auth-core/src/features/account/endpoints/change-email.ts
import { z as z3 } from "zod";

// packages/auth-core/src/errors/catalogue.ts
var ERROR_CATALOGUE = {
  // Session and general
  FAILED_TO_CREATE_SESSION: { status: 500, message: "Failed to create session" },
  FAILED_TO_GET_SESSION: { status: 500, message: "Failed to get session" },
  SESSION_NOT_FOUND: { status: 400, message: "Session not found" },
  UNAUTHORIZED: { status: 401, message: "unauthorized" },
  SESSION_EXPIRED_REAUTHENTICATE: {
    status: 401,
    message: "Session expired. Re-authenticate to perform this action."
  },
  SESSION_NOT_FRESH: { status: 403, message: "Session is not fresh" },
  INVALID_CALLBACK_URL: { status: 403, message: "Invalid callbackURL" },
  INVALID_REDIRECT_URL: { status: 403, message: "Invalid redirectURL" },
  INVALID_ERROR_CALLBACK_URL: { status: 403, message: "Invalid errorCallbackURL" },
  INVALID_NEW_USER_CALLBACK_URL: { status: 403, message: "Invalid newUserCallbackURL" },
  INVALID_ORIGIN: { status: 403, message: "Invalid origin" },
  UNABLE_TO_CREATE_VERIFICATION: { status: 500, message: "Unable to create verification" },
  VERIFICATION_EMAIL_NOT_ENABLED: { status: 400, message: "Verification email isn't enabled" },
  EMAIL_ALREADY_VERIFIED: {
    status: 400,
    message: "You can only send a verification email to an unverified email"
  },
  EMAIL_MISMATCH: { status: 400, message: "You can only send a verification email to your own email" },
  // Verify-email token errors (as JSON when there is no callbackURL)
  TOKEN_EXPIRED: { status: 401, message: "token_expired" },
  INVALID_VERIFICATION_TOKEN: { status: 401, message: "invalid_token" },
  VERIFICATION_USER_NOT_FOUND: { status: 401, message: "user_not_found" },
  VERIFICATION_UNAUTHORIZED: { status: 401, message: "unauthorized" },
  // Social sign-in
  PROVIDER_NOT_FOUND: { status: 404, message: "Provider not found" },
  ID_TOKEN_NOT_SUPPORTED: { status: 404, message: "id_token not supported" },
  INVALID_ID_TOKEN: { status: 401, message: "invalid token" },
  FAILED_TO_GET_USER_INFO: { status: 401, message: "Failed to get user info" },
  USER_EMAIL_NOT_FOUND: { status: 401, message: "User email not found" },
  // Email sign-in
  EMAIL_PASSWORD_DISABLED: { status: 400, message: "Email and password is not enabled" },
  INVALID_EMAIL: { status: 400, message: "Invalid email" },
  INVALID_EMAIL_OR_PASSWORD: { status: 401, message: "Invalid email or password" },
  EMAIL_NOT_VERIFIED: { status: 403, message: "Email not verified" },
  // Passwords
  RESET_PASSWORD_DISABLED: { status: 400, message: "Reset password isn't enabled" },
  INVALID_TOKEN: { status: 400, message: "invalid token" },
  PASSWORD_TOO_SHORT: { status: 400, message: "Password too short" },
  PASSWORD_TOO_LONG: { status: 400, message: "Password too long" },
  CREDENTIAL_ACCOUNT_NOT_FOUND: { status: 400, message: "Credential account not found" },
  INVALID_PASSWORD: { status: 400, message: "Invalid password" },
  PASSWORD_ALREADY_SET: { status: 400, message: "user already has a password" },
  // Deletion and email change
  SESSION_EXPIRED: { status: 400, message: "Session expired" },
  DELETE_USER_DISABLED: { status: 404, message: "Not found" },
  // Not in SPEC §8: a `hooks.user.delete.before` hook refused the deletion (config/hooks.ts).
  DELETE_USER_REFUSED: { status: 403, message: "User deletion was refused" },
  CHANGE_EMAIL_DISABLED: { status: 400, message: "Change email is disabled" },
  EMAIL_IS_THE_SAME: { status: 400, message: "Email is the same" },
  EMAIL_CAN_NOT_BE_UPDATED: { status: 400, message: "Couldn't update your email" },
  // Not in SPEC §8: update-user with no field to change, or refused by a user update hook.
  NO_FIELDS_TO_UPDATE: { status: 400, message: "No fields to update" },
  FAILED_TO_UPDATE_USER: { status: 400, message: "Failed to update user" },
  USER_ALREADY_EXISTS: { status: 422, message: "User already exists" },
  // Accounts
  FAILED_TO_UNLINK_LAST_ACCOUNT: { status: 400, message: "You can't unlink your last account" },
  ACCOUNT_NOT_FOUND: { status: 400, message: "Account not found" },
  LINKING_NOT_ALLOWED: { status: 401, message: "Account not linked - linking not allowed" },
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: { status: 401, message: "different emails not allowed" },
  UNABLE_TO_CREATE_ACCOUNT: { status: 417, message: "unable to create account" },
  USER_ID_OR_SESSION_REQUIRED: { status: 400, message: "Either userId or session is required" },
  PROVIDER_NOT_SUPPORTED: { status: 400, message: "Provider {id} is not supported" },
  TOKEN_REFRESH_NOT_SUPPORTED: { status: 400, message: "does not support token refreshing" },
  FAILED_TO_GET_ACCESS_TOKEN: { status: 400, message: "Failed to get a valid access token" },
  FAILED_TO_REFRESH_ACCESS_TOKEN: { status: 400, message: "Failed to refresh access token" },
  ACCOUNT_USER_ALREADY_EXISTS: { status: 422, message: "User already exists" },
  // Organizations
  ORGANIZATION_CREATION_NOT_ALLOWED: { status: 403, message: "not allowed to create a new organization" },
  ORGANIZATION_LIMIT_REACHED: { status: 403, message: "maximum number of organizations reached" },
  ORGANIZATION_ALREADY_EXISTS: { status: 400, message: "Organization already exists" },
  ORGANIZATION_NOT_FOUND: { status: 400, message: "Organization not found" },
  USER_NOT_MEMBER: { status: 400, message: "User is not a member of the organization" },
  ORGANIZATION_UPDATE_NOT_ALLOWED: {
    status: 403,
    message: "not allowed to update or delete this organization"
  },
  NO_ACTIVE_ORGANIZATION: { status: 400, message: "No active organization" },
  MEMBER_NOT_FOUND: { status: 400, message: "Member not found" },
  TEAM_NOT_FOUND: { status: 400, message: "Team not found" },
  CANNOT_LEAVE_AS_ONLY_OWNER: { status: 400, message: "cannot leave as the only owner" },
  MEMBER_DELETE_NOT_ALLOWED: { status: 403, message: "not allowed to delete this member" },
  INVITATION_NOT_FOUND: { status: 400, message: "Invitation not found" },
  NOT_INVITATION_RECIPIENT: { status: 403, message: "not the recipient of the invitation" },
  INVITATION_CANCEL_NOT_ALLOWED: { status: 403, message: "not allowed to cancel this invitation" },
  INVITER_NO_LONGER_MEMBER: { status: 400, message: "Inviter is no longer a member" },
  FAILED_TO_RETRIEVE_INVITATION: { status: 400, message: "Failed to retrieve invitation" },
  UNABLE_TO_REMOVE_LAST_TEAM: { status: 400, message: "Unable to remove last team" },
  MEMBERSHIP_LIMIT_REACHED: { status: 403, message: "Organization membership limit reached" },
  TEAM_DELETE_NOT_ALLOWED: { status: 403, message: "not allowed to delete teams" },
  TEAM_UPDATE_NOT_ALLOWED: { status: 403, message: "not allowed to update or delete this team" },
  TEAM_MEMBER_LIMIT_REACHED: { status: 403, message: "Team member limit reached" },
  NOT_AUTHENTICATED: { status: 401, message: "Not authenticated" },
  ORGANIZATION_ID_REQUIRED: { status: 400, message: "Organization ID is required" },
  NOT_A_MEMBER_OF_ORGANIZATION: { status: 403, message: "You are not a member of this organization" },
  // API keys
  API_KEY_NOT_FOUND: { status: 404, message: "not found" },
  API_KEY_DISABLED: { status: 401, message: "disabled" },
  API_KEY_EXPIRED: { status: 401, message: "expired" },
  API_KEY_USAGE_EXCEEDED: { status: 429, message: "usage limit reached" },
  API_KEY_RATE_LIMITED: { status: 429, message: "rate limit exceeded" },
  API_KEY_INVALID: { status: 401, message: "invalid" },
  API_KEY_UPDATE_FAILED: { status: 500, message: "failed to update" },
  // Access control
  RESOURCE_ACCESS_NOT_ALLOWED: { status: 403, message: "not allowed to access resource" },
  RESOURCE_ACCESS_UNAUTHORIZED: { status: 401, message: "unauthorized to access resource" },
  NOT_AUTHORIZED: { status: 403, message: "Not authorized" },
  // Request hygiene: not in SPEC §8, needed by the HTTP layer (DECISIONS.md: UPPER_SNAKE code + message)
  NOT_FOUND: { status: 404, message: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, message: "Method not allowed" },
  BODY_TOO_LARGE: { status: 413, message: "Request body too large" },
  INVALID_JSON: { status: 400, message: "Invalid JSON body" },
  UNSUPPORTED_CONTENT_TYPE: { status: 400, message: "Unsupported content type" },
  VALIDATION_ERROR: { status: 400, message: "Invalid request" },
  TOO_MANY_REQUESTS: { status: 429, message: "Too many requests. Please try again later." },
  SERVICE_UNAVAILABLE: { status: 503, message: "Service unavailable" },
  INTERNAL_SERVER_ERROR: { status: 500, message: "Internal server error" },
  FORBIDDEN_SERVER_ONLY: { status: 404, message: "Not found" }
};

// packages/auth-core/src/errors/auth-error.ts
var AuthError = class extends Error {
  code;
  status;
  /** Extra, safe-to-show details (for example which field failed validation). */
  details;
  constructor(code, options) {
    super(options?.message ?? ERROR_CATALOGUE[code].message, { cause: options?.cause });
    this.name = "AuthError";
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.details = options?.details;
  }
  toJSON() {
    return { code: this.code, message: this.message, ...this.details };
  }
};
function isAuthError(error) {
  return error instanceof AuthError;
}

// packages/auth-core/src/http/define-endpoint.ts
var ENDPOINT_RESULT = /* @__PURE__ */ Symbol("tessera.endpoint-result");
function redirectTo(location) {
  return { [ENDPOINT_RESULT]: true, kind: "redirect", location };
}
function htmlPage(html, status = 200) {
  return { [ENDPOINT_RESULT]: true, kind: "html", status, html };
}
function defineEndpoint(definition) {
  return definition;
}

// packages/auth-core/src/features/schemas.ts
import { z as z2 } from "zod";
var emailField = z2.string().max(320).trim().regex(/^[\x21-\x7e]+$/).toLowerCase().pipe(
  z2.email().max(254).refine((email) => email.indexOf("@") <= 64)
);
var passwordField = z2.string();
var callbackURLField = z2.string().max(2048);
var nameField = z2.string().trim().max(256);
var imageField = z2.string().max(2048).nullable();
var queryBoolean = z2.union([z2.boolean(), z2.enum(["true", "false"])]).transform((value) => value === true || value === "true");
var tokenField = z2.string().min(1).max(4096);

// packages/auth-core/src/features/session/service.ts
import { ObjectId as ObjectId2 } from "mongodb";

// packages/auth-core/src/crypto/password.ts
import { availableParallelism } from "node:os";
import * as ScryptModule from "scrypt-kdf";
var Scrypt = ScryptModule.default ?? ScryptModule;
var DEFAULT_PASSWORD_PARAMS = { logN: 14, r: 8, p: 1 };
var MAX_CONCURRENT_KDF = Math.max(1, availableParallelism());
var runningKdf = 0;
var waitingKdf = [];
async function withKdfSlot(work) {
  if (runningKdf >= MAX_CONCURRENT_KDF) await new Promise((resolve) => waitingKdf.push(resolve));
  else runningKdf++;
  try {
    return await work();
  } finally {
    const next = waitingKdf.shift();
    if (next) next();
    else runningKdf--;
  }
}
var FORMAT_PREFIX = "s1$";
function normalizePassword(password) {
  return password.normalize("NFKC");
}
async function hashPassword(password, params = DEFAULT_PASSWORD_PARAMS) {
  const key = await withKdfSlot(() => Scrypt.kdf(normalizePassword(password), params));
  return FORMAT_PREFIX + Buffer.from(key).toString("base64");
}
async function verifyPassword(storedHash, password, params = DEFAULT_PASSWORD_PARAMS) {
  if (!storedHash.startsWith(FORMAT_PREFIX)) return { valid: false, needsRehash: false };
  const key = Buffer.from(storedHash.slice(FORMAT_PREFIX.length), "base64");
  let valid;
  try {
    valid = await withKdfSlot(() => Scrypt.verify(key, normalizePassword(password)));
  } catch {
    return { valid: false, needsRehash: false };
  }
  if (!valid) return { valid: false, needsRehash: false };
  const stored = Scrypt.viewParams(key);
  const needsRehash = stored.logN < params.logN || stored.r < params.r || stored.p < params.p;
  return { valid: true, needsRehash };
}
async function spendPasswordWork(password, params = DEFAULT_PASSWORD_PARAMS) {
  await withKdfSlot(() => Scrypt.kdf(normalizePassword(password), params));
}

// packages/auth-core/src/crypto/random.ts
import { createHash, randomInt } from "node:crypto";
var ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
var LOWER_ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyz";
function generateRandomString(length, alphabet = ALPHANUMERIC) {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}
function generateSessionToken() {
  return generateRandomString(32);
}
function sha256Base64Url(value) {
  return createHash("sha256").update(value).digest("base64url");
}

// packages/auth-core/src/crypto/signing.ts
import { createHmac, timingSafeEqual } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
function signValue(value, secret) {
  return `${value}.${createHmac("sha256", secret).update(value).digest("base64url")}`;
}
function unsignValue(signed, secret) {
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", secret).update(value).digest("base64url"));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return value;
}
function jwtKey(secret) {
  return new TextEncoder().encode(secret);
}
async function signJwt(payload, secret, expiresInSeconds, now) {
  const iat = Math.floor(now.getTime() / 1e3);
  return new SignJWT(payload).setProtectedHeader({ alg: "HS256" }).setIssuedAt(iat).setExpirationTime(iat + expiresInSeconds).sign(jwtKey(secret));
}
async function verifyJwt(token, secret, now) {
  try {
    const { payload } = await jwtVerify(token, jwtKey(secret), { algorithms: ["HS256"], currentDate: now });
    return { ok: true, payload };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: "expired" };
    return { ok: false, reason: "invalid" };
  }
}

// packages/auth-core/src/features/hooks.ts
async function applyBeforeHook(hooks, data) {
  if (!hooks?.before) return data;
  const result = await hooks.before(data);
  if (result === false) return null;
  return result?.data ? { ...data, ...result.data } : data;
}
async function applyAfterHook(hooks, doc) {
  await hooks?.after?.(doc);
}

// packages/auth-core/src/features/session/cookie-cache.ts
import { createHmac as createHmac2, timingSafeEqual as timingSafeEqual2 } from "node:crypto";
import { ObjectId } from "mongodb";

// packages/auth-core/src/features/session/types.ts
function toUser(doc) {
  return {
    id: doc._id.toHexString(),
    email: doc.email,
    emailVerified: doc.emailVerified,
    name: doc.name,
    image: doc.image ?? null,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt
  };
}
function toSession(doc) {
  return {
    id: doc._id.toHexString(),
    userId: doc.userId.toHexString(),
    token: doc.token,
    expiresAt: doc.expiresAt,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    ipAddress: doc.ipAddress,
    userAgent: doc.userAgent,
    activeOrganizationId: doc.activeOrganizationId
  };
}

// packages/auth-core/src/features/session/cookie-cache.ts
var COOKIE_CACHE_MAX_LENGTH = 4093;
var SESSION_API_FIELDS = /* @__PURE__ */ new Set([
  "dontRemember",
  "_id",
  "userId",
  "token",
  "expiresAt",
  "createdAt",
  "updatedAt",
  "ipAddress",
  "userAgent",
  "activeOrganizationId"
]);
var USER_API_FIELDS = /* @__PURE__ */ new Set(["_id", "email", "emailVerified", "name", "image", "createdAt", "updatedAt"]);
function mac(body, token, secret) {
  return createHmac2("sha256", secret).update(`cookie-cache:${token}:${body}`).digest("base64url");
}
function encodeCookieCache(session, user, expiresAt, secret, cookieName) {
  const meta = [
    Math.min(expiresAt.getTime(), session.expiresAt.getTime()),
    session.dontRemember ? 1 : 0
  ];
  const sessionFields = otherFields(session, SESSION_API_FIELDS);
  const userFields = otherFields(user, USER_API_FIELDS);
  if (sessionFields || userFields) meta.push(sessionFields ?? {});
  if (userFields) meta.push(userFields);
  const api = JSON.stringify({ session: toSession(session), user: toUser(user) });
  const body = Buffer.from(`${JSON.stringify(meta)}
${api}`).toString("base64url");
  const value = `${body}.${mac(body, session.token, secret)}`;
  const length = cookieName.length + 1 + encodeURIComponent(value).length;
  return length > COOKIE_CACHE_MAX_LENGTH ? null : value;
}
function otherFields(doc, carried) {
  let rest;
  for (const [key, value] of Object.entries(doc)) {
    if (carried.has(key) || value === void 0) continue;
    rest ??= {};
    rest[key] = value;
  }
  return rest;
}
function readCookieCache(value, secret, token, now) {
  const dot = value.lastIndexOf(".");
  if (dot <= 0 || value.length > COOKIE_CACHE_MAX_LENGTH) return null;
  const body = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(body, token, secret));
  if (given.length !== expected.length || !timingSafeEqual2(given, expected)) return null;
  const text = Buffer.from(body, "base64url").toString("utf8");
  const newline = text.indexOf("\n");
  if (newline < 0) return null;
  let meta;
  try {
    meta = JSON.parse(text.slice(0, newline));
  } catch {
    return null;
  }
  if (!(meta[0] > now.getTime())) return null;
  const json = text.slice(newline + 1);
  let documents = null;
  return {
    json,
    documents: () => {
      documents ??= rebuildDocuments(JSON.parse(json), meta);
      return documents;
    }
  };
}
function rebuildDocuments(api, meta) {
  const { session, user } = api;
  const sessionDoc = {
    ...meta[2],
    dontRemember: meta[1] === 1,
    _id: ObjectId.createFromHexString(session.id),
    userId: ObjectId.createFromHexString(session.userId),
    token: session.token,
    expiresAt: new Date(session.expiresAt),
    createdAt: new Date(session.createdAt),
    updatedAt: new Date(session.updatedAt),
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    activeOrganizationId: session.activeOrganizationId
  };
  const userDoc = {
    ...meta[3],
    _id: ObjectId.createFromHexString(user.id),
    email: user.email,
    emailVerified: user.emailVerified,
    name: user.name,
    image: user.image,
    createdAt: new Date(user.createdAt),
    updatedAt: new Date(user.updatedAt)
  };
  return { session: sessionDoc, user: userDoc };
}

// packages/auth-core/src/features/session/rules.ts
function isSessionExpired(expiresAt, now) {
  return expiresAt.getTime() <= now.getTime();
}
function sessionExpiry(now, dontRemember, timing) {
  const seconds = dontRemember ? timing.dontRememberExpiresIn : timing.expiresIn;
  return new Date(now.getTime() + seconds * 1e3);
}
function shouldRefreshSession(session, now, timing, refreshDisabledByRequest) {
  if (session.dontRemember || timing.disableSessionRefresh || refreshDisabledByRequest) return false;
  const lastExtendedAt = session.expiresAt.getTime() - timing.expiresIn * 1e3;
  return now.getTime() - lastExtendedAt >= timing.updateAge * 1e3;
}
function isSessionFresh(session, now, freshAge) {
  if (freshAge === 0) return true;
  return now.getTime() - session.updatedAt.getTime() <= freshAge * 1e3;
}

// packages/auth-core/src/features/session/store.ts
async function insertSession(collections, doc) {
  await collections.sessions.insertOne(doc);
}
function findSessionByToken(collections, token) {
  return collections.sessions.findOne({ token: { $eq: token } });
}
function findUserById(collections, id) {
  return collections.users.findOne({ _id: id });
}
async function deleteSessionByToken(collections, token) {
  const result = await collections.sessions.deleteOne({ token: { $eq: token } });
  return result.deletedCount === 1;
}
async function updateSessionExpiry(collections, id, expiresAt) {
  await collections.sessions.updateOne({ _id: id }, { $set: { expiresAt } });
}
function listUserSessions(collections, userId, now) {
  return collections.sessions.find({ userId, expiresAt: { $gt: now } }).sort({ createdAt: -1 }).limit(100).toArray();
}
async function deleteUserSessionByToken(collections, userId, token) {
  const result = await collections.sessions.deleteOne({ userId, token: { $eq: token } });
  return result.deletedCount === 1;
}
async function deleteUserSessions(collections, userId, keepToken) {
  const filter = keepToken === void 0 ? { userId } : { userId, token: { $ne: keepToken } };
  const result = await collections.sessions.deleteMany(filter);
  return result.deletedCount;
}

// packages/auth-core/src/features/session/service.ts
async function createSession(auth2, input) {
  const now = auth2.now();
  const draft = {
    _id: new ObjectId2(),
    userId: input.userId,
    token: generateSessionToken(),
    expiresAt: sessionExpiry(now, input.dontRemember, auth2.options.session),
    createdAt: now,
    updatedAt: now,
    ipAddress: input.ipAddress,
    userAgent: input.userAgent ? input.userAgent.slice(0, 512) : null,
    activeOrganizationId: null,
    dontRemember: input.dontRemember
  };
  const hooks = auth2.options.hooks?.session?.create;
  const doc = await applyBeforeHook(hooks, draft);
  if (!doc) throw new AuthError("FAILED_TO_CREATE_SESSION");
  try {
    await insertSession(auth2.collections, doc);
  } catch (error) {
    throw new AuthError("FAILED_TO_CREATE_SESSION", { cause: error });
  }
  await applyAfterHook(hooks, doc);
  return doc;
}
function maxAgeSeconds(session, now) {
  return Math.max(0, Math.floor((session.expiresAt.getTime() - now.getTime()) / 1e3));
}
function setSessionCookies(auth2, jar, session, user) {
  const now = auth2.now();
  const maxAge = session.dontRemember ? void 0 : maxAgeSeconds(session, now);
  jar.set(auth2.cookies.sessionToken, signValue(session.token, auth2.options.secret), { maxAge });
  if (session.dontRemember) jar.set(auth2.cookies.dontRemember, signValue("true", auth2.options.secret));
  else if (jar.get(auth2.cookies.dontRemember) !== void 0) jar.delete(auth2.cookies.dontRemember);
  setCookieCache(auth2, jar, session, user);
}
function setCookieCache(auth2, jar, session, user) {
  const cache = auth2.options.session.cookieCache;
  if (!cache.enabled) return;
  const now = auth2.now();
  const expiresAt = new Date(Math.min(now.getTime() + cache.maxAge * 1e3, session.expiresAt.getTime()));
  const value = encodeCookieCache(session, user, expiresAt, auth2.options.secret, auth2.cookies.sessionData);
  if (value === null) {
    if (jar.get(auth2.cookies.sessionData) !== void 0) jar.delete(auth2.cookies.sessionData);
    return;
  }
  jar.set(auth2.cookies.sessionData, value, { maxAge: session.dontRemember ? void 0 : cache.maxAge });
}
function clearSessionCookies(auth2, jar) {
  jar.delete(auth2.cookies.sessionToken);
  if (jar.get(auth2.cookies.sessionData) !== void 0 || auth2.options.session.cookieCache.enabled) {
    jar.delete(auth2.cookies.sessionData);
  }
  if (jar.get(auth2.cookies.dontRemember) !== void 0) jar.delete(auth2.cookies.dontRemember);
}
function readSessionToken(auth2, jar) {
  const signed = jar.get(auth2.cookies.sessionToken);
  if (!signed) return null;
  return unsignValue(signed, auth2.options.secret);
}
async function readSession(auth2, jar, options) {
  const hadCookie = jar.get(auth2.cookies.sessionToken) !== void 0;
  const token = readSessionToken(auth2, jar);
  if (!token) {
    if (hadCookie) clearSessionCookies(auth2, jar);
    return null;
  }
  const now = auth2.now();
  if (options.useCookieCache && auth2.options.session.cookieCache.enabled) {
    const cached = jar.get(auth2.cookies.sessionData);
    if (cached) {
      const hit = readCookieCache(cached, auth2.options.secret, token, now);
      if (hit) return fromCookieCache(hit);
      jar.delete(auth2.cookies.sessionData);
    }
  }
  const session = await findSessionByToken(auth2.collections, token);
  if (!session) {
    clearSessionCookies(auth2, jar);
    return null;
  }
  if (isSessionExpired(session.expiresAt, now)) {
    await deleteSessionByToken(auth2.collections, token);
    clearSessionCookies(auth2, jar);
    return null;
  }
  const user = await findUserById(auth2.collections, session.userId);
  if (!user) {
    clearSessionCookies(auth2, jar);
    return null;
  }
  const dontRemember = session.dontRemember || jar.get(auth2.cookies.dontRemember) !== void 0;
  if (shouldRefreshSession({ ...session, dontRemember }, now, auth2.options.session, options.disableRefresh)) {
    await extendSession(auth2, session, now);
    setSessionCookies(auth2, jar, session, user);
  } else if (options.useCookieCache && auth2.options.session.cookieCache.enabled) {
    setCookieCache(auth2, jar, session, user);
  }
  return { session, user, fromCache: false };
}
var cachedJson = /* @__PURE__ */ new WeakMap();
function fromCookieCache(hit) {
  const found = {
    get session() {
      return hit.documents().session;
    },
    get user() {
      return hit.documents().user;
    },
    fromCache: true
  };
  cachedJson.set(found, hit.json);
  return found;
}
function cachedSessionJson(found) {
  return cachedJson.get(found);
}
async function extendSession(auth2, session, now) {
  const hooks = auth2.options.hooks?.session?.update;
  const change = await applyBeforeHook(hooks, {
    expiresAt: sessionExpiry(now, false, auth2.options.session)
  });
  if (!change?.expiresAt) return;
  session.expiresAt = change.expiresAt;
  await updateSessionExpiry(auth2.collections, session._id, session.expiresAt);
  await applyAfterHook(hooks, session);
}

// packages/auth-core/src/db/documents.ts
var CREDENTIAL_PROVIDER_ID = "credential";

// packages/auth-core/src/features/users/store.ts
function findUserByEmail(collections, email) {
  return collections.users.findOne({ email: { $eq: email } });
}
function findCredentialAccount(collections, userId) {
  return collections.accounts.findOne({ userId, providerId: CREDENTIAL_PROVIDER_ID });
}
async function insertUser(collections, doc) {
  await collections.users.insertOne(doc);
}
async function insertAccount(collections, doc) {
  await collections.accounts.insertOne(doc);
}
async function updateUserFields(collections, userId, fields) {
  return collections.users.findOneAndUpdate({ _id: userId }, { $set: fields }, { returnDocument: "after" });
}
async function setCredentialPassword(collections, accountId, hash, now, expectedHash) {
  const filter = expectedHash === void 0 ? { _id: accountId } : { _id: accountId, password: { $eq: expectedHash } };
  const result = await collections.accounts.updateOne(filter, { $set: { password: hash, updatedAt: now } });
  return result.matchedCount === 1;
}
async function deleteUserById(collections, userId) {
  await collections.users.deleteOne({ _id: userId });
}

// packages/auth-core/src/mail/templates/en.ts
var enTemplates = {
  htmlLang: "en",
  kinds: {
    "verify-email": ({ url, name, appName }) => ({
      subject: `Verify your email for ${appName}`,
      blocks: [
        greet(name),
        paragraph(`Please confirm your email address to finish setting up your ${appName} account.`),
        { type: "link", label: "Verify email address", url },
        paragraph(`If you did not create an account with ${appName}, you can ignore this email.`),
        signOff(appName)
      ]
    }),
    "reset-password": ({ url, name, appName, expiresInMinutes }) => ({
      subject: `Reset your ${appName} password`,
      blocks: [
        greet(name),
        paragraph(
          `We received a request to reset the password of your ${appName} account. Open the link below to choose a new password.`
        ),
        { type: "link", label: "Reset password", url },
        paragraph(
          `The link expires in ${formatCount(expiresInMinutes, "minute")}. If you did not ask for a reset, you can ignore this email: your password stays the same.`
        ),
        signOff(appName)
      ]
    }),
    "change-email": ({ url, newEmail, appName }) => ({
      subject: `Confirm your new email address for ${appName}`,
      blocks: [
        greet(void 0),
        paragraph(
          `We received a request to change the email address of your ${appName} account to ${newEmail}. Open the link below to confirm the change.`
        ),
        { type: "link", label: "Confirm email change", url },
        paragraph("If you did not ask for this change, ignore this email and your address stays the same."),
        signOff(appName)
      ]
    }),
    "delete-account": ({ url, appName, expiresInHours }) => ({
      subject: `Confirm deleting your ${appName} account`,
      blocks: [
        greet(void 0),
        paragraph(
          `We received a request to delete your ${appName} account. Open the link below to confirm. Your account and its data will be deleted permanently.`
        ),
        { type: "link", label: "Delete my account", url },
        paragraph(
          `The link expires in ${formatCount(expiresInHours, "hour")}. If you did not ask to delete your account, ignore this email and consider changing your password.`
        ),
        signOff(appName)
      ]
    }),
    invitation: ({ url, organizationName, inviterName, role, appName }) => ({
      subject: `${inviterName} invited you to join ${organizationName} on ${appName}`,
      blocks: [
        greet(void 0),
        paragraph(
          `${inviterName} invited you to join ${organizationName} on ${appName} with the role \u201C${role}\u201D.`
        ),
        { type: "link", label: "View invitation", url },
        paragraph("If you were not expecting this invitation, you can ignore this email."),
        signOff(appName)
      ]
    }),
    // The code stays out of the subject so it does not show on lock screens and notification previews.
    "two-factor-otp": ({ code, appName, expiresInMinutes }) => ({
      subject: `Your ${appName} sign-in code`,
      blocks: [
        greet(void 0),
        paragraph(`Use this code to finish signing in to ${appName}:`),
        { type: "code", code },
        paragraph(
          `The code expires in ${formatCount(expiresInMinutes, "minute")}. If you did not try to sign in, change your password: someone else may know it.`
        ),
        signOff(appName)
      ]
    })
  }
};
function paragraph(text) {
  return { type: "paragraph", text };
}
function greet(name) {
  const trimmed = name?.trim();
  return paragraph(trimmed ? `Hi ${trimmed},` : "Hi,");
}
function signOff(appName) {
  return paragraph(`\u2014 ${appName}`);
}
function formatCount(count, unit) {
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

// packages/auth-core/src/mail/escape-html.ts
var HTML_ESCAPES = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;"
};
function escapeHtml(value) {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

// packages/auth-core/src/mail/templates/layout.ts
function renderMailContent(content, htmlLang) {
  const subject = content.subject.replace(/\s*[\r\n]+\s*/g, " ").trim();
  for (const block of content.blocks) {
    if (block.type === "link") assertHttpUrl(block.url);
  }
  return {
    subject,
    text: `${content.blocks.map(renderTextBlock).join("\n\n")}
`,
    html: renderHtmlDocument(subject, content.blocks, htmlLang)
  };
}
function renderTextBlock(block) {
  switch (block.type) {
    case "paragraph":
      return block.text;
    case "link":
      return block.url;
    case "code":
      return block.code;
  }
}
function renderHtmlBlock(block) {
  switch (block.type) {
    case "paragraph":
      return `<p style="margin:0 0 16px">${escapeHtml(block.text)}</p>`;
    case "link": {
      const url = escapeHtml(block.url);
      return `<p style="margin:0 0 16px"><a href="${url}" style="display:inline-block;padding:10px 18px;background:#1a1a1a;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(block.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#555555;word-break:break-all">${url}</p>`;
    }
    case "code":
      return `<p style="margin:0 0 16px;font-family:monospace;font-size:28px;letter-spacing:6px"><strong>${escapeHtml(block.code)}</strong></p>`;
  }
}
function renderHtmlDocument(subject, blocks, htmlLang) {
  return [
    "<!doctype html>",
    `<html lang="${escapeHtml(htmlLang)}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto">',
    ...blocks.map(renderHtmlBlock),
    "</div>",
    "</body>",
    "</html>",
    ""
  ].join("\n");
}
function assertHttpUrl(url) {
  let protocol;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error("Mail link is not a valid absolute URL; check the baseURL option");
  }
  if (protocol !== "https:" && protocol !== "http:") {
    throw new Error("Mail link must use http or https; check the baseURL option");
  }
}

// packages/auth-core/src/mail/templates/index.ts
var templatesByLanguage = /* @__PURE__ */ new Map([
  ["ENG", enTemplates]
]);
function renderMail(kind, language, data) {
  const templates = language !== null && templatesByLanguage.get(language) || enTemplates;
  return renderMailContent(templates.kinds[kind](data), templates.htmlLang);
}

// packages/auth-core/src/features/mail-dispatch.ts
function toMailUser(user) {
  return { id: user._id.toHexString(), email: user.email, name: user.name };
}
async function dispatchMail(auth2, kind, recipient, data, hook) {
  if (hook) {
    await hook();
    return;
  }
  const language = recipient.language ?? auth2.options.language;
  const rendered = renderMail(kind, language, {
    ...data,
    appName: auth2.options.appName
  });
  await auth2.mailer.send({ to: recipient.email, kind, ...rendered });
}
function apiLink(auth2, path, query) {
  const url = new URL(`${auth2.apiURL}${path}`);
  for (const [key, value] of Object.entries(query)) if (value !== void 0) url.searchParams.set(key, value);
  return url.toString();
}

// packages/auth-core/src/features/verification/rules.ts
var REQUEST_TYPES = [
  "change-email-confirmation",
  "change-email-verification",
  "post-change-verification"
];
function readVerificationClaims(payload) {
  const { email, purpose, sub, updateTo, requestType } = payload;
  if (purpose !== "verify-email" || typeof email !== "string" || email === "") return null;
  if (sub !== void 0 && typeof sub !== "string") return null;
  if (updateTo !== void 0 && (typeof updateTo !== "string" || updateTo === "")) return null;
  if (requestType !== void 0 && (typeof requestType !== "string" || !REQUEST_TYPES.includes(requestType)))
    return null;
  const claims = {
    email,
    userId: sub ?? null,
    updateTo: updateTo ?? null,
    requestType: requestType ?? null
  };
  const isChange = claims.requestType === "change-email-confirmation" || claims.requestType === "change-email-verification";
  if (isChange !== (claims.updateTo !== null)) return null;
  return claims;
}
var VERIFY_FAILURE_ERRORS = {
  token_expired: "TOKEN_EXPIRED",
  invalid_token: "INVALID_VERIFICATION_TOKEN",
  user_not_found: "VERIFICATION_USER_NOT_FOUND",
  unauthorized: "VERIFICATION_UNAUTHORIZED",
  email_taken: "EMAIL_CAN_NOT_BE_UPDATED"
};
var VERIFY_FAILURE_REDIRECT_CODES = {
  token_expired: "token_expired",
  invalid_token: "invalid_token",
  user_not_found: "user_not_found",
  unauthorized: "unauthorized",
  email_taken: "email_can_not_be_updated"
};
function withQueryParam(url, name, value) {
  const hashAt = url.indexOf("#");
  const base2 = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  const separator = !base2.includes("?") ? "?" : base2.endsWith("?") || base2.endsWith("&") ? "" : "&";
  return `${base2}${separator}${pair}${hash}`;
}
function shouldAutoSignIn(input) {
  return input.enabled && input.requestType === null && input.becameVerified && !input.signedIn;
}

// packages/auth-core/src/features/verification/store.ts
import { ObjectId as ObjectId3 } from "mongodb";
async function createVerification(collections, identifier, value, expiresAt, now) {
  const doc = {
    _id: new ObjectId3(),
    identifier,
    value,
    expiresAt,
    createdAt: now,
    updatedAt: now
  };
  await collections.verifications.insertOne(doc);
  return doc;
}
function findVerification(collections, identifier, now) {
  return collections.verifications.findOne({ identifier: { $eq: identifier }, expiresAt: { $gt: now } });
}
async function consumeVerification(collections, identifier, now, value) {
  const row = await collections.verifications.findOne({
    identifier: { $eq: identifier },
    expiresAt: { $gt: now },
    ...value === void 0 ? {} : { value: { $eq: value } }
  });
  if (!row) return null;
  const { deletedCount } = await collections.verifications.deleteOne({ _id: row._id });
  return deletedCount === 1 ? row : null;
}
function updateUserWhereEmail(collections, userId, expectedEmail, expectedVerified, fields) {
  const filter = expectedVerified === void 0 ? { _id: userId, email: { $eq: expectedEmail } } : { _id: userId, email: { $eq: expectedEmail }, emailVerified: expectedVerified };
  return collections.users.findOneAndUpdate(filter, { $set: fields }, { returnDocument: "after" });
}
async function claimOneTimeToken(collections, identifier, expiresAt, now) {
  try {
    await createVerification(collections, identifier, "used", expiresAt, now);
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}
async function releaseOneTimeToken(collections, identifier) {
  await collections.verifications.deleteOne({ identifier: { $eq: identifier } });
}

// packages/auth-core/src/features/verification/service.ts
async function createEmailVerificationToken(auth2, email, updateTo, options = {}) {
  const payload = { email, purpose: "verify-email" };
  if (updateTo) payload.updateTo = updateTo;
  if (options.userId) payload.sub = options.userId.toHexString();
  if (options.requestType) payload.requestType = options.requestType;
  return signJwt(payload, auth2.options.secret, auth2.options.emailVerification.expiresIn, auth2.now());
}
async function readEmailVerificationToken(auth2, token) {
  const check = await verifyJwt(token, auth2.options.secret, auth2.now());
  if (!check.ok) return { ok: false, reason: check.reason === "expired" ? "token_expired" : "invalid_token" };
  const claims = readVerificationClaims(check.payload);
  return claims ? { ok: true, claims } : { ok: false, reason: "invalid_token" };
}
function verificationLink(auth2, token, callbackURL) {
  return apiLink(auth2, "/verify-email", { token, callbackURL: callbackURL ?? "/" });
}
async function sendVerificationEmail(auth2, user, callbackURL, options = {}) {
  const token = await createEmailVerificationToken(auth2, user.email, void 0, {
    userId: user._id,
    requestType: options.requestType
  });
  await deliverVerificationMail(auth2, user, token, verificationLink(auth2, token, callbackURL));
}
async function sendVerificationEmailInBackground(auth2, user, callbackURL) {
  const token = await createEmailVerificationToken(auth2, user.email, void 0, { userId: user._id });
  deliverVerificationMail(auth2, user, token, verificationLink(auth2, token, callbackURL)).catch(
    (error) => auth2.options.logger.error("verification email could not be sent", error)
  );
}
function deliverVerificationMail(auth2, user, token, url) {
  const hook = auth2.options.mail?.sendVerificationEmail;
  return dispatchMail(
    auth2,
    "verify-email",
    user,
    { url, name: user.name },
    hook && (() => hook({ user: toMailUser(user), url, token }))
  );
}
async function sendVerificationEmailQuietly(auth2, email, callbackURL) {
  const user = await findUserByEmail(auth2.collections, email);
  const token = await createEmailVerificationToken(auth2, email, void 0, { userId: user?._id });
  if (!user || user.emailVerified) return;
  deliverVerificationMail(auth2, user, token, verificationLink(auth2, token, callbackURL)).catch(
    (error) => auth2.options.logger.error("verification email could not be sent", error)
  );
}
async function sendChangeEmailLink(auth2, user, newEmail, requestType, callbackURL) {
  const token = await createEmailVerificationToken(auth2, user.email, newEmail, {
    userId: user._id,
    requestType
  });
  const url = verificationLink(auth2, token, callbackURL);
  if (requestType === "change-email-verification") {
    await deliverVerificationMail(auth2, { ...user, email: newEmail }, token, url);
    return;
  }
  const hook = auth2.options.mail?.sendChangeEmailVerification;
  await dispatchMail(
    auth2,
    "change-email",
    user,
    { url, newEmail },
    hook && (() => hook({ user: toMailUser(user), newEmail, url, token }))
  );
}
async function writeEmailState(auth2, user, expectedVerified, fields) {
  const hooks = auth2.options.hooks?.user?.update;
  const data = await applyBeforeHook(hooks, { ...fields, updatedAt: auth2.now() });
  if (!data) return { ok: false, reason: "refused" };
  const { _id: _ignoredId, createdAt: _ignoredCreatedAt, ...safe } = data;
  let updated;
  try {
    updated = await updateUserWhereEmail(auth2.collections, user._id, user.email, expectedVerified, safe);
  } catch (error) {
    if (safe.email !== void 0 && await isTakenByAnother(auth2, error, user, safe.email))
      return { ok: false, reason: "taken" };
    throw error;
  }
  if (!updated) return { ok: false, reason: "stale" };
  await applyAfterHook(hooks, updated);
  return { ok: true, user: updated };
}
async function isTakenByAnother(auth2, error, user, email) {
  if (isDuplicateKeyError(error)) return true;
  const owner = await findUserByEmail(auth2.collections, email).catch(() => null);
  return owner !== null && !owner._id.equals(user._id);
}
function markEmailVerified(auth2, user) {
  return writeEmailState(auth2, user, false, { emailVerified: true });
}
function moveUserEmail(auth2, user, newEmail, emailVerified) {
  return writeEmailState(auth2, user, void 0, { email: newEmail, emailVerified });
}

// packages/auth-core/src/features/account/service.ts
async function requestEmailChange(auth2, user, newEmail, callbackURL) {
  if (newEmail === user.email) throw new AuthError("EMAIL_IS_THE_SAME");
  if (await findUserByEmail(auth2.collections, newEmail)) throw new AuthError("EMAIL_CAN_NOT_BE_UPDATED");
  const { verifyNewEmailFirst } = auth2.options.user.changeEmail;
  if (user.emailVerified) {
    await sendChangeEmailLink(auth2, user, newEmail, "change-email-confirmation", callbackURL);
    return user;
  }
  if (verifyNewEmailFirst) {
    await sendChangeEmailLink(auth2, user, newEmail, "change-email-verification", callbackURL);
    return user;
  }
  const moved = await moveUserEmail(auth2, user, newEmail, false);
  if (!moved.ok) throw new AuthError("EMAIL_CAN_NOT_BE_UPDATED");
  if (auth2.options.emailVerification.enabled) {
    await sendVerificationEmail(auth2, moved.user, callbackURL, { requestType: "post-change-verification" });
  }
  return moved.user;
}

// packages/auth-core/src/features/account/endpoints/change-email.ts
var changeEmail = defineEndpoint({
  name: "changeEmail",
  method: "POST",
  path: "/change-email",
  // Security-matrix E11 / OWASP: changing the sign-in address needs a recent authentication, so a
  // stolen long-lived session cannot redirect the account's mail (403 Session is not fresh).
  auth: "fresh-session",
  // The current address and its verified state decide the flow: read from the database.
  sensitive: true,
  body: z3.strictObject({
    newEmail: emailField,
    callbackURL: callbackURLField.optional()
  }),
  fieldErrors: { newEmail: "INVALID_EMAIL" },
  async handler(ctx) {
    const { auth: auth2, body } = ctx;
    if (!auth2.options.user.changeEmail.enabled) throw new AuthError("CHANGE_EMAIL_DISABLED");
    const caller = ctx.session;
    const user = await requestEmailChange(auth2, caller.user, body.newEmail, body.callbackURL);
    if (user !== caller.user) setCookieCache(auth2, ctx.cookies, caller.session, user);
    return { status: true };
  }
});

// packages/auth-core/src/features/account/endpoints/update-user.ts
import { z as z4 } from "zod";

// packages/auth-core/src/features/users/service.ts
import { ObjectId as ObjectId4 } from "mongodb";
async function createUser(auth2, fields) {
  const now = auth2.now();
  const hooks = auth2.options.hooks?.user?.create;
  const doc = await applyBeforeHook(hooks, {
    _id: new ObjectId4(),
    ...fields,
    createdAt: now,
    updatedAt: now
  });
  if (!doc) return { ok: false, reason: "refused" };
  try {
    await insertUser(auth2.collections, doc);
  } catch (error) {
    if (isDuplicateKeyError(error)) return { ok: false, reason: "exists" };
    throw error;
  }
  await applyAfterHook(hooks, doc);
  return { ok: true, user: doc };
}
async function createCredentialAccount(auth2, userId, passwordHash) {
  const now = auth2.now();
  const hooks = auth2.options.hooks?.account?.create;
  const doc = await applyBeforeHook(hooks, {
    _id: new ObjectId4(),
    providerId: CREDENTIAL_PROVIDER_ID,
    accountId: userId.toHexString(),
    userId,
    password: passwordHash,
    accessToken: null,
    refreshToken: null,
    idToken: null,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scope: null,
    createdAt: now,
    updatedAt: now
  });
  if (!doc) throw new AuthError("UNABLE_TO_CREATE_ACCOUNT");
  try {
    await insertAccount(auth2.collections, doc);
  } catch (error) {
    throw new AuthError("UNABLE_TO_CREATE_ACCOUNT", { cause: error });
  }
  await applyAfterHook(hooks, doc);
  return doc;
}
async function updateUser(auth2, userId, fields) {
  const hooks = auth2.options.hooks?.user?.update;
  const data = await applyBeforeHook(hooks, { ...fields, updatedAt: auth2.now() });
  if (!data) return null;
  const { _id: _ignored, ...safe } = data;
  const updated = await updateUserFields(auth2.collections, userId, safe);
  if (updated) await applyAfterHook(hooks, updated);
  return updated;
}
function assertPasswordLength(auth2, password) {
  const { minPasswordLength, maxPasswordLength } = auth2.options.emailAndPassword;
  if (password.length < minPasswordLength) throw new AuthError("PASSWORD_TOO_SHORT");
  if (password.length > maxPasswordLength) throw new AuthError("PASSWORD_TOO_LONG");
}
async function updateCredentialPassword(auth2, accountId, hash, expectedHash) {
  const hooks = auth2.options.hooks?.account?.update;
  const change = await applyBeforeHook(hooks, { password: hash, updatedAt: auth2.now() });
  if (!change) return false;
  const written = await setCredentialPassword(
    auth2.collections,
    accountId,
    change.password ?? hash,
    change.updatedAt ?? auth2.now(),
    expectedHash
  );
  if (written) await applyAfterHook(hooks, { ...change, _id: accountId });
  return written;
}

// packages/auth-core/src/features/account/endpoints/update-user.ts
var updateUserEndpoint = defineEndpoint({
  name: "updateUser",
  method: "POST",
  path: "/update-user",
  auth: "session",
  // Strict: `email` (change-email's job), `emailVerified`, `role`, ids… are refused with 400, never
  // written (security-matrix A6). Strings only, so no operator object reaches the database.
  body: z4.strictObject({
    name: nameField.optional(),
    image: imageField.optional()
  }),
  async handler(ctx) {
    const { auth: auth2, body } = ctx;
    const fields = {};
    if (body.name !== void 0) fields.name = body.name;
    if (body.image !== void 0) fields.image = body.image;
    if (Object.keys(fields).length === 0) throw new AuthError("NO_FIELDS_TO_UPDATE");
    const caller = ctx.session;
    const updated = await updateUser(auth2, caller.user._id, fields);
    if (!updated) throw new AuthError("FAILED_TO_UPDATE_USER");
    setCookieCache(auth2, ctx.cookies, caller.session, updated);
    return { status: true };
  }
});

// packages/auth-core/src/features/account/index.ts
var accountEndpoints = [updateUserEndpoint, changeEmail];

// packages/auth-core/src/features/deletion/endpoints/delete-user.ts
import { z as z5 } from "zod";

// packages/auth-core/src/features/deletion/rules.ts
function deleteAccountIdentifier(token) {
  return `delete-account-${token}`;
}
var USER_TOKEN_IDENTIFIER = /^(?:delete-account-|reset-password:)/;
function chooseDeletePath(input) {
  if (input.hasToken) return "consume-token";
  if (input.sendsVerificationEmail) return "send-email";
  if (input.hasPassword) return "delete";
  return "require-fresh-session";
}
function appendErrorParam(callbackURL, code) {
  const isRelative = callbackURL.startsWith("/");
  const url = new URL(callbackURL, "http://relative.invalid");
  url.searchParams.set("error", code);
  return isRelative ? `${url.pathname}${url.search}${url.hash}` : url.toString();
}

// packages/auth-core/src/features/deletion/store.ts
async function deleteUserDoc(collections, userId) {
  const result = await collections.users.deleteOne({ _id: userId });
  return result.deletedCount === 1;
}
async function deleteUserAccounts(collections, userId) {
  const result = await collections.accounts.deleteMany({ userId });
  return result.deletedCount;
}
async function deleteUserTokens(collections, userId) {
  const result = await collections.verifications.deleteMany({
    identifier: { $regex: USER_TOKEN_IDENTIFIER },
    value: { $eq: userId.toHexString() }
  });
  return result.deletedCount;
}

// packages/auth-core/src/features/deletion/service.ts
function readCallerForDeletion(auth2, jar) {
  return readSession(auth2, jar, { useCookieCache: false, disableRefresh: true });
}
async function checkAccountPassword(auth2, user, password) {
  const account = await findCredentialAccount(auth2.collections, user._id);
  if (!account?.password) return "no-credential-account";
  if (password.length > auth2.options.emailAndPassword.maxPasswordLength) return "wrong-password";
  const check = await verifyPassword(account.password, password);
  return check.valid ? "ok" : "wrong-password";
}
async function sendDeleteAccountEmail(auth2, user, callbackURL) {
  const token = generateRandomString(32, LOWER_ALPHANUMERIC);
  const now = auth2.now();
  const lifetime = auth2.options.user.deleteUser.deleteTokenExpiresIn;
  try {
    await createVerification(
      auth2.collections,
      deleteAccountIdentifier(token),
      user._id.toHexString(),
      new Date(now.getTime() + lifetime * 1e3),
      now
    );
  } catch (error) {
    throw new AuthError("UNABLE_TO_CREATE_VERIFICATION", { cause: error });
  }
  const url = apiLink(auth2, "/delete-user/callback", { token, callbackURL: callbackURL ?? "/" });
  const hook = auth2.options.mail?.sendDeleteAccountVerification;
  await dispatchMail(
    auth2,
    "delete-account",
    user,
    { url, expiresInHours: Math.round(lifetime / 3600 * 100) / 100 },
    hook && (() => hook({ user: toMailUser(user), url, token }))
  );
}
async function consumeDeleteAccountToken(auth2, user, token) {
  const identifier = deleteAccountIdentifier(token);
  return await consumeVerification(auth2.collections, identifier, auth2.now(), user._id.toHexString()) !== null;
}
async function deleteUserAndData(auth2, user) {
  const hooks = auth2.options.hooks?.user?.delete;
  if (await hooks?.before?.(user) === false) return { ok: false, reason: "refused" };
  await deleteUserSessions(auth2.collections, user._id);
  await deleteUserDoc(auth2.collections, user._id);
  await deleteUserAccounts(auth2.collections, user._id);
  await deleteUserTokens(auth2.collections, user._id);
  await hooks?.after?.(user);
  return { ok: true };
}

// packages/auth-core/src/features/deletion/endpoints/delete-user.ts
var deleteUser = defineEndpoint({
  name: "deleteUser",
  method: "POST",
  path: "/delete-user",
  auth: "none",
  sensitive: true,
  body: z5.strictObject({
    callbackURL: callbackURLField.optional(),
    password: passwordField.optional(),
    token: tokenField.optional()
  }),
  async handler(ctx) {
    const { auth: auth2, body } = ctx;
    const config = auth2.options.user.deleteUser;
    if (!config.enabled) throw new AuthError("DELETE_USER_DISABLED");
    const caller = await readCallerForDeletion(auth2, ctx.cookies);
    if (!caller) throw new AuthError("UNAUTHORIZED");
    const { user, session } = caller;
    if (body.password !== void 0) {
      const check = await checkAccountPassword(auth2, user, body.password);
      if (check === "no-credential-account") throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
      if (check === "wrong-password") throw new AuthError("INVALID_PASSWORD");
    }
    const path = chooseDeletePath({
      hasToken: body.token !== void 0,
      hasPassword: body.password !== void 0,
      sendsVerificationEmail: config.sendDeleteAccountVerification
    });
    if (path === "send-email") {
      await sendDeleteAccountEmail(auth2, user, body.callbackURL);
      return { success: true, message: "Verification email sent" };
    }
    if (path === "consume-token" && !await consumeDeleteAccountToken(auth2, user, body.token ?? "")) {
      throw new AuthError("INVALID_TOKEN");
    }
    if (path === "require-fresh-session" && !isSessionFresh(session, auth2.now(), auth2.options.session.freshAge)) {
      throw new AuthError("SESSION_EXPIRED");
    }
    const result = await deleteUserAndData(auth2, user);
    if (!result.ok) throw new AuthError("DELETE_USER_REFUSED");
    clearSessionCookies(auth2, ctx.cookies);
    return { success: true, message: "User deleted" };
  }
});

// packages/auth-core/src/features/deletion/endpoints/delete-user-callback.ts
import { z as z6 } from "zod";
var deleteUserCallback = defineEndpoint({
  name: "deleteUserCallback",
  method: "GET",
  path: "/delete-user/callback",
  auth: "optional",
  sensitive: true,
  query: z6.strictObject({
    token: tokenField,
    callbackURL: callbackURLField.optional()
  }),
  async handler(ctx) {
    const { auth: auth2, query } = ctx;
    if (!auth2.options.user.deleteUser.enabled) throw new AuthError("DELETE_USER_DISABLED");
    const fail = (code) => {
      if (query.callbackURL === void 0) throw new AuthError(code);
      return redirectTo(appendErrorParam(query.callbackURL, code));
    };
    const user = ctx.session?.user;
    if (!user) return fail("UNAUTHORIZED");
    if (!await consumeDeleteAccountToken(auth2, user, query.token)) return fail("INVALID_TOKEN");
    const result = await deleteUserAndData(auth2, user);
    if (!result.ok) return fail("DELETE_USER_REFUSED");
    clearSessionCookies(auth2, ctx.cookies);
    if (query.callbackURL !== void 0) return redirectTo(query.callbackURL);
    return { success: true, message: "User deleted" };
  }
});

// packages/auth-core/src/features/deletion/index.ts
var deletionEndpoints = [deleteUser, deleteUserCallback];

// packages/auth-core/src/features/email-password/endpoints/sign-in-email.ts
import { ObjectId as ObjectId5 } from "mongodb";
import { z as z7 } from "zod";
var signInEmail = defineEndpoint({
  name: "signInEmail",
  method: "POST",
  path: "/sign-in/email",
  auth: "none",
  body: z7.strictObject({
    email: emailField,
    password: passwordField,
    callbackURL: callbackURLField.optional(),
    rememberMe: z7.boolean().optional()
  }),
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx) {
    const { auth: auth2, body } = ctx;
    const config = auth2.options.emailAndPassword;
    if (!config.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
    if (body.password.length > config.maxPasswordLength) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
    const user = await findUserByEmail(auth2.collections, body.email);
    const account = await findCredentialAccount(auth2.collections, user?._id ?? new ObjectId5());
    if (!user || !account?.password) {
      await spendPasswordWork(body.password);
      throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
    }
    const check = await verifyPassword(account.password, body.password);
    if (!check.valid) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
    if (check.needsRehash) {
      const rehash = await hashPassword(body.password);
      await updateCredentialPassword(auth2, account._id, rehash, account.password);
    }
    if (config.requireEmailVerification && !user.emailVerified) {
      if (auth2.options.emailVerification.sendOnSignIn)
        await sendVerificationEmail(auth2, user, body.callbackURL);
      throw new AuthError("EMAIL_NOT_VERIFIED");
    }
    const session = await createSession(auth2, {
      userId: user._id,
      dontRemember: body.rememberMe === false,
      ipAddress: ctx.ip,
      userAgent: ctx.headers.get("user-agent")
    });
    setSessionCookies(auth2, ctx.cookies, session, user);
    return {
      redirect: body.callbackURL !== void 0,
      token: session.token,
      url: body.callbackURL ?? null,
      user: toUser(user)
    };
  }
});

// packages/auth-core/src/features/email-password/endpoints/sign-up-email.ts
import { ObjectId as ObjectId6 } from "mongodb";
import { z as z8 } from "zod";
var signUpEmail = defineEndpoint({
  name: "signUpEmail",
  method: "POST",
  path: "/sign-up/email",
  auth: "none",
  body: z8.strictObject({
    name: nameField,
    email: emailField,
    password: passwordField,
    image: imageField.optional(),
    callbackURL: callbackURLField.optional(),
    rememberMe: z8.boolean().optional()
  }),
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx) {
    const { auth: auth2, body } = ctx;
    const config = auth2.options.emailAndPassword;
    if (!config.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
    assertPasswordLength(auth2, body.password);
    const passwordHash = await hashPassword(body.password);
    const created = await createUser(auth2, {
      email: body.email,
      name: body.name,
      image: body.image ?? null,
      emailVerified: false
    });
    if (!created.ok) {
      if (created.reason === "exists" && config.requireEmailVerification) {
        const now = auth2.now();
        return {
          token: null,
          user: toUser({
            _id: new ObjectId6(),
            email: body.email,
            name: body.name,
            image: body.image ?? null,
            emailVerified: false,
            createdAt: now,
            updatedAt: now
          })
        };
      }
      if (created.reason === "exists") throw new AuthError("USER_ALREADY_EXISTS");
      throw new AuthError("UNABLE_TO_CREATE_ACCOUNT");
    }
    const user = created.user;
    try {
      await createCredentialAccount(auth2, user._id, passwordHash);
    } catch (error) {
      await deleteUserById(auth2.collections, user._id);
      throw error;
    }
    const sendOnSignUp = auth2.options.emailVerification.sendOnSignUp ?? config.requireEmailVerification;
    if (sendOnSignUp && auth2.options.emailVerification.enabled)
      await sendVerificationEmailInBackground(auth2, user, body.callbackURL);
    if (!config.autoSignIn || config.requireEmailVerification) return { token: null, user: toUser(user) };
    const session = await createSession(auth2, {
      userId: user._id,
      dontRemember: body.rememberMe === false,
      ipAddress: ctx.ip,
      userAgent: ctx.headers.get("user-agent")
    });
    setSessionCookies(auth2, ctx.cookies, session, user);
    return { token: session.token, user: toUser(user) };
  }
});

// packages/auth-core/src/features/email-password/index.ts
var emailPasswordEndpoints = [signUpEmail, signInEmail];

// packages/auth-core/src/features/general/endpoints/error.ts
import { z as z9 } from "zod";
var errorPage = defineEndpoint({
  name: "error",
  method: "GET",
  path: "/error",
  auth: "none",
  // Lenient on purpose: this page must render for whatever a provider or a link puts in the query.
  query: z9.object({ error: z9.unknown().optional() }).passthrough(),
  async handler(ctx) {
    const raw2 = typeof ctx.query.error === "string" && ctx.query.error.length > 0 ? ctx.query.error : "Unknown";
    const code = escapeHtml(raw2.slice(0, 200));
    const home = escapeHtml(ctx.auth.options.baseURL ? new URL(ctx.auth.options.baseURL).origin + "/" : "/");
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(ctx.auth.options.appName)} \u2014 error</title></head>
<body><main><h1>Something went wrong</h1><p>Error code: <code>${code}</code></p>
<p><a href="${home}">Back to the application</a></p></main></body></html>`;
    ctx.setHeader("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    return htmlPage(html);
  }
});

// packages/auth-core/src/features/general/endpoints/ok.ts
var ok = defineEndpoint({
  name: "ok",
  method: "GET",
  path: "/ok",
  auth: "none",
  async handler() {
    return { ok: true };
  }
});

// packages/auth-core/src/features/general/index.ts
var generalEndpoints = [ok, errorPage];

// packages/auth-core/src/features/password/endpoints/change-password.ts
import { z as z10 } from "zod";

// packages/auth-core/src/db/ids.ts
import { ObjectId as ObjectId7 } from "mongodb";
var HEX_ID = /^[0-9a-f]{24}$/i;
function parseId(value) {
  if (typeof value !== "string" || !HEX_ID.test(value)) return null;
  return ObjectId7.createFromHexString(value);
}

// packages/auth-core/src/features/password/rules.ts
var RESET_TOKEN_LENGTH = 24;
var RESET_TOKEN_SHAPE = /^[A-Za-z0-9]{24}$/;
function resetPasswordIdentifier(token) {
  return `reset-password:${token}`;
}
function isResetTokenShaped(token) {
  return RESET_TOKEN_SHAPE.test(token);
}
function resetLinkMinutes(expiresInSeconds) {
  return Math.max(1, Math.floor(expiresInSeconds / 60));
}
function withQueryParam2(url, key, value) {
  const hashAt = url.indexOf("#");
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? "" : url.slice(hashAt);
  const queryAt = beforeHash.indexOf("?");
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const params = new URLSearchParams(queryAt === -1 ? "" : beforeHash.slice(queryAt + 1));
  params.set(key, value);
  return `${path}?${params.toString()}${hash}`;
}
function isPasswordResetEnabled(config) {
  return config.enabled && config.resetPasswordEnabled;
}

// packages/auth-core/src/features/password/store.ts
async function setPasswordIfUnset(collections, accountId, hash, now) {
  const result = await collections.accounts.updateOne(
    { _id: accountId, password: null },
    { $set: { password: hash, updatedAt: now } }
  );
  return result.matchedCount === 1;
}
async function deleteResetTokensOfUser(collections, userIdHex) {
  const result = await collections.verifications.deleteMany({
    identifier: { $regex: "^reset-password:" },
    value: { $eq: userIdHex }
  });
  return result.deletedCount;
}

// packages/auth-core/src/features/password/service.ts
async function requestPasswordReset(auth2, email, redirectTo2) {
  const user = await findUserByEmail(auth2.collections, email);
  const token = generateRandomString(RESET_TOKEN_LENGTH);
  const identifier = resetPasswordIdentifier(token);
  const now = auth2.now();
  const expiresIn = auth2.options.emailAndPassword.resetPasswordTokenExpiresIn;
  const expiresAt = new Date(now.getTime() + expiresIn * 1e3);
  if (!user) {
    await createVerification(auth2.collections, identifier, "", now, now);
    return;
  }
  await createVerification(auth2.collections, identifier, user._id.toHexString(), expiresAt, now);
  const url = apiLink(auth2, `/reset-password/${token}`, { callbackURL: redirectTo2 ?? "/" });
  const hook = auth2.options.mail?.sendResetPassword;
  dispatchMail(
    auth2,
    "reset-password",
    user,
    { url, name: user.name, expiresInMinutes: resetLinkMinutes(expiresIn) },
    hook && (() => hook({ user: toMailUser(user), url, token }))
  ).catch((error) => auth2.options.logger.error("reset-password mail failed", error));
}
async function isResetTokenLive(auth2, token) {
  if (!isResetTokenShaped(token)) return false;
  return await findVerification(auth2.collections, resetPasswordIdentifier(token), auth2.now()) !== null;
}
async function resetPassword(auth2, token, newPassword) {
  if (!isResetTokenShaped(token)) return { ok: false, reason: "invalid-token" };
  const row = await consumeVerification(auth2.collections, resetPasswordIdentifier(token), auth2.now());
  const userId = row ? parseId(row.value) : null;
  const user = userId ? await findUserById(auth2.collections, userId) : null;
  if (!user) return { ok: false, reason: "invalid-token" };
  const hash = await hashPassword(newPassword);
  const account = await findCredentialAccount(auth2.collections, user._id);
  if (account) {
    if (!await updateCredentialPassword(auth2, account._id, hash))
      throw new AuthError("FAILED_TO_UPDATE_USER");
  } else await createCredentialAccount(auth2, user._id, hash);
  await deleteResetTokensOfUser(auth2.collections, user._id.toHexString());
  if (auth2.options.emailAndPassword.revokeSessionsOnPasswordReset)
    await deleteUserSessions(auth2.collections, user._id);
  return { ok: true };
}
async function changePassword(auth2, userId, currentPassword, newPassword) {
  const account = await findCredentialAccount(auth2.collections, userId);
  if (!account?.password) return { ok: false, reason: "no-credential-account" };
  if (currentPassword.length > auth2.options.emailAndPassword.maxPasswordLength)
    return { ok: false, reason: "invalid-password" };
  const check = await verifyPassword(account.password, currentPassword);
  if (!check.valid) return { ok: false, reason: "invalid-password" };
  if (!await updateCredentialPassword(auth2, account._id, await hashPassword(newPassword))) {
    throw new AuthError("FAILED_TO_UPDATE_USER");
  }
  return { ok: true };
}
async function replaceAllSessions(auth2, jar, caller, request) {
  const session = await createSession(auth2, {
    userId: caller.user._id,
    dontRemember: caller.session.dontRemember,
    ipAddress: request.ip,
    userAgent: request.userAgent
  });
  await deleteUserSessions(auth2.collections, caller.user._id, session.token);
  setSessionCookies(auth2, jar, session, caller.user);
  return session;
}
async function setPassword(auth2, userId, newPassword) {
  const existing = await findCredentialAccount(auth2.collections, userId);
  if (existing?.password) return { ok: false, reason: "already-set" };
  const hash = await hashPassword(newPassword);
  if (existing) {
    const set = await setPasswordIfUnset(auth2.collections, existing._id, hash, auth2.now());
    return set ? { ok: true } : { ok: false, reason: "already-set" };
  }
  try {
    await createCredentialAccount(auth2, userId, hash);
  } catch (error) {
    if (isAuthError(error) && isDuplicateKeyError(error.cause)) return { ok: false, reason: "already-set" };
    throw error;
  }
  return { ok: true };
}

// packages/auth-core/src/features/password/endpoints/change-password.ts
var changePassword2 = defineEndpoint({
  name: "changePassword",
  method: "POST",
  path: "/change-password",
  auth: "session",
  sensitive: true,
  body: z10.strictObject({
    newPassword: passwordField,
    currentPassword: passwordField,
    revokeOtherSessions: z10.boolean().optional()
  }),
  async handler(ctx) {
    const caller = ctx.session;
    if (!caller) throw new AuthError("UNAUTHORIZED");
    const { body } = ctx;
    assertPasswordLength(ctx.auth, body.newPassword);
    const result = await changePassword(
      ctx.auth,
      caller.user._id,
      body.currentPassword,
      body.newPassword
    );
    if (!result.ok)
      throw new AuthError(
        result.reason === "no-credential-account" ? "CREDENTIAL_ACCOUNT_NOT_FOUND" : "INVALID_PASSWORD"
      );
    if (!body.revokeOtherSessions) return { token: null, user: toUser(caller.user) };
    const session = await replaceAllSessions(ctx.auth, ctx.cookies, caller, {
      ip: ctx.ip,
      userAgent: ctx.headers.get("user-agent")
    });
    return { token: session.token, user: toUser(caller.user) };
  }
});

// packages/auth-core/src/features/password/endpoints/request-password-reset.ts
import { z as z11 } from "zod";
var RESET_REQUESTED_MESSAGE = "If this email exists in our system, check your email for the reset link";
var requestPasswordReset2 = defineEndpoint({
  name: "requestPasswordReset",
  method: "POST",
  path: "/request-password-reset",
  auth: "none",
  body: z11.strictObject({ email: emailField, redirectTo: callbackURLField.optional() }),
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx) {
    if (!isPasswordResetEnabled(ctx.auth.options.emailAndPassword))
      throw new AuthError("RESET_PASSWORD_DISABLED");
    await requestPasswordReset(ctx.auth, ctx.body.email, ctx.body.redirectTo);
    return { status: true, message: RESET_REQUESTED_MESSAGE };
  }
});

// packages/auth-core/src/features/password/endpoints/forget-password.ts
var forgetPassword = defineEndpoint({
  ...requestPasswordReset2,
  name: "forgetPassword",
  path: "/forget-password"
});

// packages/auth-core/src/features/password/endpoints/reset-password.ts
import { z as z12 } from "zod";
var resetTokenField = z12.string().max(256);
var resetPassword2 = defineEndpoint({
  name: "resetPassword",
  method: "POST",
  path: "/reset-password",
  auth: "none",
  body: z12.strictObject({ newPassword: passwordField, token: resetTokenField.optional() }),
  query: z12.strictObject({ token: resetTokenField.optional() }),
  async handler(ctx) {
    if (!isPasswordResetEnabled(ctx.auth.options.emailAndPassword))
      throw new AuthError("RESET_PASSWORD_DISABLED");
    assertPasswordLength(ctx.auth, ctx.body.newPassword);
    const token = ctx.body.token || ctx.query.token;
    if (!token) throw new AuthError("INVALID_TOKEN");
    const result = await resetPassword(ctx.auth, token, ctx.body.newPassword);
    if (!result.ok) throw new AuthError("INVALID_TOKEN");
    return { status: true };
  }
});

// packages/auth-core/src/features/password/endpoints/reset-password-token.ts
import { z as z13 } from "zod";
var resetPasswordCallback = defineEndpoint({
  name: "resetPasswordCallback",
  method: "GET",
  path: "/reset-password/:token",
  auth: "none",
  query: z13.strictObject({ callbackURL: callbackURLField }),
  async handler(ctx) {
    ctx.setHeader("cache-control", "no-store");
    ctx.setHeader("referrer-policy", "no-referrer");
    const token = ctx.params.token ?? "";
    const { callbackURL } = ctx.query;
    if (!await isResetTokenLive(ctx.auth, token))
      return redirectTo(withQueryParam2(callbackURL, "error", "INVALID_TOKEN"));
    return redirectTo(withQueryParam2(callbackURL, "token", token));
  }
});

// packages/auth-core/src/features/password/endpoints/set-password.ts
import { z as z14 } from "zod";
var setPassword2 = defineEndpoint({
  name: "setPassword",
  method: "POST",
  path: "/set-password",
  auth: "server-only",
  sensitive: true,
  body: z14.strictObject({ newPassword: passwordField }),
  async handler(ctx) {
    if (!ctx.session) throw new AuthError("UNAUTHORIZED");
    assertPasswordLength(ctx.auth, ctx.body.newPassword);
    const result = await setPassword(ctx.auth, ctx.session.user._id, ctx.body.newPassword);
    if (!result.ok) throw new AuthError("PASSWORD_ALREADY_SET");
    return { status: true };
  }
});

// packages/auth-core/src/features/password/index.ts
var passwordEndpoints = [
  requestPasswordReset2,
  forgetPassword,
  resetPasswordCallback,
  resetPassword2,
  changePassword2,
  setPassword2
];

// packages/auth-core/src/features/session/endpoints/get-session.ts
import { z as z15 } from "zod";

// packages/auth-core/src/http/callback-urls.ts
var CALLBACK_FIELDS = [
  ["callbackURL", "INVALID_CALLBACK_URL"],
  ["redirectTo", "INVALID_REDIRECT_URL"],
  ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
  ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"]
];
function assertCallbackURLsTrusted(auth2, ...sources) {
  for (const source of sources) {
    if (typeof source !== "object" || source === null) continue;
    for (const [field, code] of CALLBACK_FIELDS) {
      const value = source[field];
      if (value === void 0 || value === null) continue;
      if (typeof value !== "string" || !auth2.origins.isAllowedCallbackURL(value)) throw new AuthError(code);
    }
  }
}

// packages/auth-core/src/http/cookies.ts
var MAX_COOKIE_AGE_SECONDS = 400 * 86400;
function parseCookieHeader(header) {
  const cookies = /* @__PURE__ */ new Map();
  if (!header) return cookies;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (cookies.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!value.includes("%")) {
      cookies.set(name, value);
      continue;
    }
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}
function serializeCookie(name, value, attributes) {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (attributes.maxAge !== void 0) {
    parts.push(`Max-Age=${Math.min(Math.max(0, Math.floor(attributes.maxAge)), MAX_COOKIE_AGE_SECONDS)}`);
  }
  parts.push(`Path=${attributes.path ?? "/"}`);
  if (attributes.httpOnly !== false) parts.push("HttpOnly");
  if (attributes.secure) parts.push("Secure");
  parts.push(`SameSite=${attributes.sameSite ?? "Lax"}`);
  return parts.join("; ");
}

// packages/auth-core/src/http/cookie-jar.ts
var CookieJar = class {
  incoming;
  outgoing = /* @__PURE__ */ new Map();
  defaults;
  constructor(cookieHeader, defaults) {
    this.incoming = parseCookieHeader(cookieHeader);
    this.defaults = defaults;
  }
  get(name) {
    return this.incoming.get(name);
  }
  set(name, value, attributes) {
    this.outgoing.set(name, serializeCookie(name, value, { ...this.defaults, ...attributes }));
  }
  delete(name) {
    this.outgoing.set(name, serializeCookie(name, "", { ...this.defaults, maxAge: 0 }));
  }
  setCookieLines() {
    return [...this.outgoing.values()];
  }
};

// packages/auth-core/src/http/origins.ts
var SAFE_RELATIVE_PATH = /^\/(?![/\\])[\w\-.~+/@:!$&'()*,;=]*(?:\?[\w\-.~+/@:!$&'()*,;=%]*)?(?:#[\w\-.~+/=&%@]*)?$/;
function isSafeRelativePath(value) {
  if (!SAFE_RELATIVE_PATH.test(value)) return false;
  const path = value.split(/[?#]/, 1)[0] ?? "";
  return !/%2f|%5c/i.test(path) && !path.includes("//");
}
function hasAmbiguousCharacters(url) {
  for (const char of url) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 32 || code >= 127 && code <= 159 || char === "\\" || /\s/u.test(char)) return true;
  }
  return false;
}
function compilePattern(pattern) {
  if (!pattern.includes("://")) return compileHostPattern(pattern);
  if (!pattern.includes("*")) {
    let exact;
    try {
      exact = new URL(pattern).origin;
    } catch {
      return () => false;
    }
    return (origin) => origin === exact;
  }
  const escaped = pattern.replace(/[.+?^${}()|[\]\\/]/g, "\\$&").replace(/\*/g, "[a-z0-9-]+(?:\\.[a-z0-9-]+)*");
  const regex = new RegExp(`^${escaped}$`, "i");
  return (origin) => regex.test(origin);
}
function compileHostPattern(pattern) {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\/]/g, "\\$&").replace(/\*/g, "[a-z0-9-]+(?:\\.[a-z0-9-]+)*");
  const regex = new RegExp(`^${escaped}$`, "i");
  return (origin) => {
    let url;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return url.protocol === "https:" && url.origin === origin && regex.test(url.host);
  };
}
function createOriginMatcher(baseURL, trustedOrigins) {
  const patterns = [...baseURL ? [new URL(baseURL).origin] : [], ...trustedOrigins].map(compilePattern);
  const isTrustedOrigin = (origin) => {
    if (!origin || origin === "null") return false;
    return patterns.some((matches) => matches(origin));
  };
  return {
    isTrustedOrigin,
    isAllowedCallbackURL(url) {
      if (hasAmbiguousCharacters(url)) return false;
      if (url.startsWith("/")) return isSafeRelativePath(url);
      let parsed;
      try {
        parsed = new URL(url);
      } catch {
        return false;
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
      if (parsed.username || parsed.password) return false;
      return isTrustedOrigin(parsed.origin);
    }
  };
}
function requestOrigin(headers) {
  const origin = headers.get("origin");
  if (origin) return origin;
  const referer = headers.get("referer");
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

// packages/auth-core/src/http/validate-input.ts
function validateInput(schema, input, fieldErrors) {
  if (!schema) return {};
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "");
    const mapped = fieldErrors?.[field];
    if (mapped && issue.code !== "invalid_type" && issue.path.length === 1) throw new AuthError(mapped);
  }
  throw new AuthError("VALIDATION_ERROR", {
    details: {
      issues: issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }))
    }
  });
}

// packages/auth-core/src/http/run-endpoint.ts
var SERIALIZED_JSON = /* @__PURE__ */ Symbol("tessera.serialized-json");
function serializedJson(json, build) {
  const result = { [SERIALIZED_JSON]: true, json, build };
  return result;
}
function isSerializedJson(value) {
  return typeof value === "object" && value !== null && SERIALIZED_JSON in value;
}
function serializedOutcome(result) {
  let data;
  let built = false;
  return {
    kind: "json",
    status: 200,
    json: result.json,
    get data() {
      if (!built) {
        data = result.build();
        built = true;
      }
      return data;
    }
  };
}
function isEndpointResult(value) {
  return typeof value === "object" && value !== null && ENDPOINT_RESULT in value;
}
function assertOriginTrusted(auth2, method, input) {
  if (method === "GET") return;
  const crossSite = input.headers.get("sec-fetch-site") === "cross-site";
  if (!input.headers.has("cookie") && !crossSite) return;
  const origin = requestOrigin(input.headers);
  if (origin === null && input.isServerCall && !crossSite) return;
  if (origin === null || !auth2.origins.isTrustedOrigin(origin)) throw new AuthError("INVALID_ORIGIN");
}
async function resolveCaller(auth2, endpoint, jar) {
  if (endpoint.auth === "none") return null;
  const caller = await readSession(auth2, jar, { useCookieCache: !endpoint.sensitive, disableRefresh: false });
  if (endpoint.auth === "optional" || endpoint.auth === "server-only") return caller;
  if (!caller) throw new AuthError("UNAUTHORIZED");
  if (endpoint.auth === "fresh-session" && !isSessionFresh(caller.session, auth2.now(), auth2.options.session.freshAge)) {
    throw new AuthError("SESSION_NOT_FRESH");
  }
  return caller;
}
async function runEndpoint(auth2, endpoint, method, input) {
  const jar = new CookieJar(input.headers.get("cookie"), {
    httpOnly: true,
    secure: auth2.secureCookies,
    sameSite: "Lax",
    path: "/"
  });
  let extraHeaders = null;
  const setHeader = (name, value) => {
    extraHeaders ??= new Headers();
    extraHeaders.set(name, value);
  };
  try {
    assertOriginTrusted(auth2, method, input);
    const query = validateInput(endpoint.query, input.query, endpoint.fieldErrors);
    const body = method === "GET" ? {} : validateInput(endpoint.body, input.body, endpoint.fieldErrors);
    assertCallbackURLsTrusted(auth2, body, query);
    const session = await resolveCaller(auth2, endpoint, jar);
    const ctx = {
      auth: auth2,
      body,
      query,
      params: input.params,
      headers: input.headers,
      ip: input.ip,
      session,
      isServerCall: input.isServerCall,
      cookies: jar,
      setHeader
    };
    const result = await endpoint.handler(ctx);
    const setCookies = jar.setCookieLines();
    if (isEndpointResult(result)) {
      if (result.kind === "redirect") {
        setHeader("location", result.location);
        return withHeaders(
          { kind: "redirect", status: 302, location: result.location },
          setCookies,
          extraHeaders
        );
      }
      setHeader("content-type", "text/html; charset=utf-8");
      return withHeaders({ kind: "html", status: result.status, html: result.html }, setCookies, extraHeaders);
    }
    if (isSerializedJson(result)) return withHeaders(serializedOutcome(result), setCookies, extraHeaders);
    return withHeaders({ kind: "json", status: 200, data: result ?? null }, setCookies, extraHeaders);
  } catch (error) {
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), {
      responseHeaders: toHeaders(jar.setCookieLines(), extraHeaders)
    });
  }
}
function withHeaders(outcome, setCookies, extraHeaders) {
  return Object.assign(outcome, { headers: toHeaders(setCookies, extraHeaders), setCookies, extraHeaders });
}
function toHeaders(setCookies, extraHeaders) {
  const headers = extraHeaders ? new Headers(extraHeaders) : new Headers();
  for (const line of setCookies) headers.append("set-cookie", line);
  return headers;
}
function headersOfFailure(error) {
  return error?.responseHeaders;
}

// packages/auth-core/src/features/session/endpoints/get-session.ts
var getSession = defineEndpoint({
  name: "getSession",
  method: "GET",
  path: "/get-session",
  auth: "none",
  query: z15.strictObject({
    disableCookieCache: queryBoolean.optional(),
    disableRefresh: queryBoolean.optional()
  }),
  async handler(ctx) {
    const found = await readSession(ctx.auth, ctx.cookies, {
      useCookieCache: ctx.query.disableCookieCache !== true,
      disableRefresh: ctx.query.disableRefresh === true
    });
    if (!found) return null;
    const build = () => ({ session: toSession(found.session), user: toUser(found.user) });
    const json = cachedSessionJson(found);
    return json === void 0 ? build() : serializedJson(json, build);
  }
});

// packages/auth-core/src/features/session/endpoints/list-sessions.ts
var listSessions = defineEndpoint({
  name: "listSessions",
  method: "GET",
  path: "/list-sessions",
  auth: "fresh-session",
  sensitive: true,
  async handler(ctx) {
    const { auth: auth2 } = ctx;
    const caller = ctx.session;
    const sessions = await listUserSessions(auth2.collections, caller.user._id, auth2.now());
    return sessions.map(toSession);
  }
});

// packages/auth-core/src/features/session/endpoints/revoke-other-sessions.ts
var revokeOtherSessions = defineEndpoint({
  name: "revokeOtherSessions",
  method: "POST",
  path: "/revoke-other-sessions",
  auth: "session",
  sensitive: true,
  async handler(ctx) {
    const caller = ctx.session;
    await deleteUserSessions(ctx.auth.collections, caller.user._id, caller.session.token);
    return { status: true };
  }
});

// packages/auth-core/src/features/session/endpoints/revoke-session.ts
import { z as z16 } from "zod";
var revokeSession = defineEndpoint({
  name: "revokeSession",
  method: "POST",
  path: "/revoke-session",
  auth: "session",
  sensitive: true,
  body: z16.strictObject({ token: tokenField }),
  async handler(ctx) {
    const { auth: auth2 } = ctx;
    const caller = ctx.session;
    const deleted = await deleteUserSessionByToken(auth2.collections, caller.user._id, ctx.body.token);
    if (!deleted) throw new AuthError("SESSION_NOT_FOUND");
    if (ctx.body.token === caller.session.token) clearSessionCookies(auth2, ctx.cookies);
    return { status: true };
  }
});

// packages/auth-core/src/features/session/endpoints/revoke-sessions.ts
var revokeSessions = defineEndpoint({
  name: "revokeSessions",
  method: "POST",
  path: "/revoke-sessions",
  auth: "session",
  sensitive: true,
  async handler(ctx) {
    await deleteUserSessions(ctx.auth.collections, ctx.session.user._id);
    clearSessionCookies(ctx.auth, ctx.cookies);
    return { status: true };
  }
});

// packages/auth-core/src/features/session/endpoints/sign-out.ts
var signOut = defineEndpoint({
  name: "signOut",
  method: "POST",
  path: "/sign-out",
  auth: "none",
  async handler(ctx) {
    const token = readSessionToken(ctx.auth, ctx.cookies);
    if (token) await deleteSessionByToken(ctx.auth.collections, token);
    clearSessionCookies(ctx.auth, ctx.cookies);
    return { success: true };
  }
});

// packages/auth-core/src/features/session/index.ts
var sessionEndpoints = [
  getSession,
  listSessions,
  revokeSession,
  revokeSessions,
  revokeOtherSessions,
  signOut
];

// packages/auth-core/src/features/verification/endpoints/send-verification-email.ts
import { z as z17 } from "zod";
var sendVerificationEmailEndpoint = defineEndpoint({
  name: "sendVerificationEmail",
  method: "POST",
  path: "/send-verification-email",
  auth: "optional",
  // The checks below read emailVerified: from the database, never from a cookie cache that may
  // predate the verification.
  sensitive: true,
  body: z17.strictObject({
    email: emailField,
    callbackURL: callbackURLField.optional()
  }),
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx) {
    const { auth: auth2, body, session } = ctx;
    if (!auth2.options.emailVerification.enabled) throw new AuthError("VERIFICATION_EMAIL_NOT_ENABLED");
    if (!session) {
      await sendVerificationEmailQuietly(auth2, body.email, body.callbackURL);
      return { status: true };
    }
    if (body.email !== session.user.email) throw new AuthError("EMAIL_MISMATCH");
    if (session.user.emailVerified) throw new AuthError("EMAIL_ALREADY_VERIFIED");
    await sendVerificationEmail(auth2, session.user, body.callbackURL);
    return { status: true };
  }
});

// packages/auth-core/src/features/verification/endpoints/verify-email.ts
import { z as z18 } from "zod";

// packages/auth-core/src/features/verification/verify-email-service.ts
async function findTokenUser(auth2, claims) {
  if (claims.userId === null) return findUserByEmail(auth2.collections, claims.email);
  const id = parseId(claims.userId);
  const user = id ? await findUserById(auth2.collections, id) : null;
  return user && user.email === claims.email ? user : null;
}
async function verifyEmailToken(auth2, token, caller, callbackURL) {
  const check = await readEmailVerificationToken(auth2, token);
  if (!check.ok) return check;
  const claims = check.claims;
  const user = await findTokenUser(auth2, claims);
  if (!user) return { ok: false, reason: "user_not_found" };
  if (claims.updateTo === null) return applyVerification(auth2, claims, user);
  if (caller && !caller.user._id.equals(user._id)) return { ok: false, reason: "unauthorized" };
  return applyEmailChange(auth2, { claims, token }, claims.updateTo, user, callbackURL);
}
async function applyVerification(auth2, claims, user) {
  if (user.emailVerified) return { ok: true, user, claims, becameVerified: false };
  const written = await markEmailVerified(auth2, user);
  if (written.ok) return { ok: true, user: written.user, claims, becameVerified: true };
  if (written.reason === "refused") return { ok: false, reason: "unauthorized" };
  const current = await findTokenUser(auth2, claims);
  if (current?.emailVerified) return { ok: true, user: current, claims, becameVerified: false };
  return { ok: false, reason: "user_not_found" };
}
function claimAutoSignIn(auth2, token) {
  const marker = `verify-email-sign-in:${sha256Base64Url(token)}`;
  const expiresAt = new Date(auth2.now().getTime() + auth2.options.emailVerification.expiresIn * 1e3);
  return claimOneTimeToken(auth2.collections, marker, expiresAt, auth2.now());
}
async function claimChangeLink(auth2, token) {
  const marker = `change-email-used:${sha256Base64Url(token)}`;
  const expiresAt = new Date(auth2.now().getTime() + auth2.options.emailVerification.expiresIn * 1e3);
  return await claimOneTimeToken(auth2.collections, marker, expiresAt, auth2.now()) ? marker : null;
}
async function applyEmailChange(auth2, { claims, token }, newEmail, user, callbackURL) {
  if (claims.requestType === "change-email-confirmation" && auth2.options.user.changeEmail.verifyNewEmailFirst) {
    return forwardChangeToNewAddress(auth2, { claims, token }, newEmail, user, callbackURL);
  }
  const marker = await claimChangeLink(auth2, token);
  if (!marker) return { ok: false, reason: "user_not_found" };
  const provenNewAddress = claims.requestType === "change-email-verification";
  const moved = await moveUserEmail(auth2, user, newEmail, provenNewAddress);
  if (!moved.ok) {
    await releaseOneTimeToken(auth2.collections, marker);
    const reasons = { taken: "email_taken", stale: "user_not_found", refused: "unauthorized" };
    return { ok: false, reason: reasons[moved.reason] };
  }
  if (!provenNewAddress && auth2.options.emailVerification.enabled) {
    await sendVerificationEmail(auth2, moved.user, callbackURL, { requestType: "post-change-verification" });
  }
  return { ok: true, user: moved.user, claims, becameVerified: provenNewAddress };
}
async function forwardChangeToNewAddress(auth2, { claims, token }, newEmail, user, callbackURL) {
  if (await findUserByEmail(auth2.collections, newEmail)) return { ok: false, reason: "email_taken" };
  const marker = await claimChangeLink(auth2, token);
  if (!marker) return { ok: false, reason: "user_not_found" };
  try {
    await sendChangeEmailLink(auth2, user, newEmail, "change-email-verification", callbackURL);
  } catch (error) {
    await releaseOneTimeToken(auth2.collections, marker);
    throw error;
  }
  return { ok: true, user, claims, becameVerified: false };
}

// packages/auth-core/src/features/verification/endpoints/verify-email.ts
var verifyEmail = defineEndpoint({
  name: "verifyEmail",
  method: "GET",
  path: "/verify-email",
  auth: "optional",
  // The callbackURL is checked against the trusted origins before this runs (run-endpoint, SPEC §5):
  // an untrusted one is a 403 and the token is not used (CVE-2024-56734).
  query: z18.strictObject({
    token: tokenField,
    callbackURL: callbackURLField.optional()
  }),
  async handler(ctx) {
    const { auth: auth2, query, session: caller } = ctx;
    const outcome = await verifyEmailToken(auth2, query.token, caller, query.callbackURL);
    if (!outcome.ok) {
      if (query.callbackURL)
        return redirectTo(
          withQueryParam(query.callbackURL, "error", VERIFY_FAILURE_REDIRECT_CODES[outcome.reason])
        );
      throw new AuthError(VERIFY_FAILURE_ERRORS[outcome.reason]);
    }
    const { user } = outcome;
    if (caller?.user._id.equals(user._id)) {
      setCookieCache(auth2, ctx.cookies, caller.session, user);
    } else if (shouldAutoSignIn({
      enabled: auth2.options.emailVerification.autoSignInAfterVerification,
      requestType: outcome.claims.requestType,
      becameVerified: outcome.becameVerified,
      signedIn: caller !== null
    }) && await claimAutoSignIn(auth2, query.token)) {
      const session = await createSession(auth2, {
        userId: user._id,
        dontRemember: false,
        ipAddress: ctx.ip,
        userAgent: ctx.headers.get("user-agent")
      });
      setSessionCookies(auth2, ctx.cookies, session, user);
    }
    if (query.callbackURL) return redirectTo(query.callbackURL);
    return { status: true, user: toUser(user) };
  }
});

// packages/auth-core/src/features/verification/index.ts
var verificationEndpoints = [sendVerificationEmailEndpoint, verifyEmail];

// packages/auth-core/src/features/registry.ts
var coreEndpoints = [
  ...generalEndpoints,
  ...sessionEndpoints,
  ...emailPasswordEndpoints,
  ...verificationEndpoints,
  ...passwordEndpoints,
  ...accountEndpoints,
  ...deletionEndpoints
];

// packages/auth-core/src/http/api.ts
function createApi(auth2, endpoints) {
  const api = {};
  for (const endpoint of endpoints) {
    const method = typeof endpoint.method === "string" ? endpoint.method : endpoint.method[0];
    api[endpoint.name] = async (input = {}) => {
      const outcome = await runEndpoint(auth2, endpoint, method, {
        body: input.body ?? {},
        query: input.query ?? {},
        params: input.params ?? {},
        headers: new Headers(input.headers),
        ip: null,
        isServerCall: true
      }).catch((error) => {
        throw toApiError(auth2, error);
      });
      if (outcome.kind === "json")
        return { data: outcome.data, status: outcome.status, headers: outcome.headers };
      if (outcome.kind === "redirect") return { data: null, status: 302, headers: outcome.headers };
      return { data: outcome.html, status: outcome.status, headers: outcome.headers };
    };
  }
  return api;
}
function toApiError(auth2, error) {
  if (isAuthError(error)) return error;
  if (isCausedByDatabaseOutage(error)) return new AuthError("SERVICE_UNAVAILABLE", { cause: error });
  auth2.options.logger.error("unexpected error in auth.api", error);
  return new AuthError("INTERNAL_SERVER_ERROR", { cause: error });
}

// packages/auth-core/src/http/client-ip.ts
import { isIP } from "node:net";
function resolveClientIp(socketAddress, headers, trustedProxies, headerName) {
  const socket = normalizeIp(socketAddress);
  const trusted = new Set(trustedProxies.map((proxy) => normalizeIp(proxy) ?? proxy));
  if (!socket || !trusted.has(socket)) return socket;
  const forwarded = headers.get(headerName);
  if (!forwarded) return socket;
  const hops = forwarded.split(",").map((hop) => normalizeIp(hop.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (!hop) return socket;
    if (!trusted.has(hop)) return hop;
  }
  return hops[0] ?? socket;
}
function normalizeIp(value) {
  if (!value) return null;
  const lower = value.toLowerCase();
  const ip = lower.startsWith("::ffff:") && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
  return isIP(ip) ? ip : null;
}
function rateLimitAddress(ip) {
  if (!ip) return "unknown";
  if (isIP(ip) !== 6) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(":")}::/64`;
}
function expandIpv6(ip) {
  let address = ip.split("%")[0];
  const dotted = address.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    const tail = `${(a << 8 | b).toString(16)}:${(c << 8 | d).toString(16)}`;
    address = address.slice(0, dotted.index) + tail;
  }
  const [head, rest] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const zeros = rest === void 0 ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

// packages/auth-core/src/http/rate-limit.ts
var STRICT_AUTH_PATHS = ["/sign-in", "/sign-up", "/change-password", "/change-email", "/delete-user"];
var MAIL_PATHS = ["/request-password-reset", "/forget-password", "/send-verification-email"];
function ruleForPath(path, config) {
  const custom = config.customRules[path];
  if (custom !== void 0) return custom === false ? null : custom;
  if (MAIL_PATHS.some((prefix) => path === prefix)) return { window: 60, max: 3 };
  if (STRICT_AUTH_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return { window: 10, max: 3 };
  }
  if (path.startsWith("/two-factor/verify")) return { window: 10, max: 3 };
  return { window: config.window, max: config.max };
}
function decideFromLog(liveExpiries, rule, now) {
  if (liveExpiries.length < rule.max) return { allowed: true };
  const frees = liveExpiries[rule.max - 1];
  return {
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((frees.getTime() - now.getTime()) / 1e3))
  };
}
var SEQUENCE_DIGITS = 12;
var idOf = (prefix, sequence) => prefix + String(sequence).padStart(SEQUENCE_DIGITS, "0");
function createDatabaseRateLimiter(collections) {
  return {
    async hit(key, rule, now) {
      const prefix = `${key}|${rule.window}s|`;
      const range = { $gte: idOf(prefix, 0), $lte: prefix + "9".repeat(SEQUENCE_DIGITS) };
      for (let attempt = 0; attempt <= rule.max + 2; attempt++) {
        const newest = await collections.rateLimits.find({ _id: range }, { projection: { _id: 1, count: 1, expiresAt: 1 } }).sort({ _id: -1 }).limit(rule.max).toArray();
        const live = newest.filter((doc) => doc.expiresAt > now).map((doc) => doc.expiresAt);
        const decision = decideFromLog(live, rule, now);
        if (!decision.allowed) return decision;
        const sequence = (newest[0]?.count ?? 0) + 1;
        try {
          await collections.rateLimits.insertOne({
            _id: idOf(prefix, sequence),
            count: sequence,
            expiresAt: new Date(now.getTime() + rule.window * 1e3)
          });
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          continue;
        }
        if (sequence % rule.max === 0 && sequence > rule.max) {
          await collections.rateLimits.deleteMany({
            _id: { $gte: range.$gte, $lte: idOf(prefix, sequence - rule.max) }
          });
        }
        return decision;
      }
      return { allowed: false, retryAfterSeconds: rule.window };
    }
  };
}
function createMemoryRateLimiter() {
  const logs = /* @__PURE__ */ new Map();
  return {
    async hit(key, rule, now) {
      const id = `${key}|${rule.window}s`;
      if (logs.size > 1e5) {
        for (const [k, log] of logs) if (log.every((expiry) => expiry <= now)) logs.delete(k);
      }
      const live = (logs.get(id) ?? []).filter((expiry) => expiry > now);
      const decision = decideFromLog(live, rule, now);
      if (decision.allowed) live.unshift(new Date(now.getTime() + rule.window * 1e3));
      logs.set(id, live);
      return decision;
    }
  };
}

// packages/auth-core/src/http/read-body.ts
async function readRequestBody(request, maxBytes, acceptsForm) {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AuthError("BODY_TOO_LARGE");
  const text = await readTextCapped(request, maxBytes);
  if (text.trim() === "") return {};
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      return JSON.parse(text);
    } catch {
      throw new AuthError("INVALID_JSON");
    }
  }
  if (acceptsForm && type === "application/x-www-form-urlencoded") {
    return Object.fromEntries(new URLSearchParams(text));
  }
  throw new AuthError("UNSUPPORTED_CONTENT_TYPE");
}
async function readTextCapped(request, maxBytes) {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks = [];
  let total = 0;
  for (; ; ) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new AuthError("BODY_TOO_LARGE");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

// packages/auth-core/src/http/router.ts
function createRouter(endpoints) {
  const routes = endpoints.map((endpoint) => ({
    endpoint,
    methods: typeof endpoint.method === "string" ? [endpoint.method] : endpoint.method,
    segments: endpoint.path.split("/").filter(Boolean)
  }));
  return (method, path) => {
    const parts = path.split("/").slice(1);
    if (!path.startsWith("/") || parts.includes("")) return { kind: "not-found" };
    const candidates = [];
    const allow = /* @__PURE__ */ new Set();
    for (const route of routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.methods.includes(method)) candidates.push({ endpoint: route.endpoint, params });
      else for (const m of route.methods) allow.add(m);
    }
    if (candidates.length > 0) {
      candidates.sort((a, b) => Object.keys(a.params).length - Object.keys(b.params).length);
      return { kind: "found", match: candidates[0] };
    }
    if (allow.size > 0) return { kind: "method-not-allowed", allow: [...allow] };
    return { kind: "not-found" };
  };
}
function matchSegments(pattern, parts) {
  if (pattern.length !== parts.length) return null;
  const params = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i];
    const actual = parts[i];
    if (expected.startsWith(":")) {
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null;
      }
    } else if (expected !== actual) return null;
  }
  return params;
}

// packages/auth-core/src/http/handler.ts
var JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
function jsonReply(status, data, extra) {
  return jsonTextReply(status, JSON.stringify(data), extra);
}
function jsonTextReply(status, body, extra) {
  const reply = { status, headers: {}, setCookies: [], body };
  if (extra) mergeHeaders(reply, extra);
  Object.assign(reply.headers, JSON_HEADERS);
  return reply;
}
function mergeHeaders(reply, headers) {
  for (const [name, value] of headers) {
    if (name === "set-cookie") reply.setCookies.push(value);
    else reply.headers[name] = value;
  }
}
function toFetchResponse(reply) {
  const headers = new Headers(reply.headers);
  for (const line of reply.setCookies) headers.append("set-cookie", line);
  return new Response(reply.body, { status: reply.status, headers });
}
function isCausedByDatabaseOutage2(error) {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (isDatabaseUnavailableError(current)) return true;
    current = current.cause;
  }
  return false;
}
function errorReply(auth2, error) {
  const headers = headersOfFailure(error);
  if (isCausedByDatabaseOutage2(error)) {
    auth2.options.logger.error("database unavailable", error);
    return jsonReply(503, new AuthError("SERVICE_UNAVAILABLE").toJSON(), headers);
  }
  if (isAuthError(error)) {
    if (error.status >= 500) auth2.options.logger.error(`${error.code}: ${error.message}`, error.cause);
    return jsonReply(error.status, error.toJSON(), headers);
  }
  auth2.options.logger.error("unexpected error", error);
  return jsonReply(500, new AuthError("INTERNAL_SERVER_ERROR").toJSON(), headers);
}
function outcomeToReply(outcome) {
  if (outcome.kind === "json") {
    const body = outcome.json ?? JSON.stringify(outcome.data);
    const reply2 = jsonTextReply(outcome.status, body, outcome.extraHeaders);
    for (const line of outcome.setCookies) reply2.setCookies.push(line);
    return reply2;
  }
  const reply = {
    status: outcome.status,
    headers: {},
    setCookies: [],
    body: outcome.kind === "html" ? outcome.html : null
  };
  if (outcome.extraHeaders) mergeHeaders(reply, outcome.extraHeaders);
  for (const line of outcome.setCookies) reply.setCookies.push(line);
  return reply;
}
function methodNotAllowed(allow) {
  const methods = allow.includes("GET") && !allow.includes("HEAD") ? [...allow, "HEAD"] : [...allow];
  const reply = jsonReply(405, new AuthError("METHOD_NOT_ALLOWED").toJSON());
  reply.headers.allow = methods.join(", ");
  return reply;
}
var engines = /* @__PURE__ */ new WeakMap();
function engineOf(handler) {
  return engines.get(handler);
}
function createHandler(auth2, endpoints, rateLimiter) {
  const engine2 = createEngine(auth2, endpoints, rateLimiter);
  const handler = async (request, options) => {
    const reply = await engine2({
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      remoteAddress: options?.remoteAddress ?? null,
      readBody: (maxBytes, acceptsForm) => readRequestBody(request, maxBytes, acceptsForm)
    });
    return toFetchResponse(reply);
  };
  engines.set(handler, engine2);
  return handler;
}
function createEngine(auth2, endpoints, rateLimiter) {
  const route = createRouter(endpoints.filter((endpoint) => endpoint.auth !== "server-only"));
  const { basePath } = auth2.options;
  return async (request) => {
    const reply = await handleRequest(request);
    if (request.method === "HEAD") reply.body = null;
    return reply;
  };
  async function handleRequest(request) {
    try {
      const { url } = request;
      if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
        throw new AuthError("NOT_FOUND");
      const path = url.pathname.slice(basePath.length) || "/";
      const method = request.method === "HEAD" ? "GET" : request.method;
      const lookup = route(method, path);
      if (lookup.kind === "not-found") throw new AuthError("NOT_FOUND");
      if (lookup.kind === "method-not-allowed") return methodNotAllowed(lookup.allow);
      const { endpoint, params } = lookup.match;
      const ip = resolveClientIp(
        request.remoteAddress,
        request.headers,
        auth2.options.advanced.trustedProxies,
        auth2.options.advanced.ipAddressHeader
      );
      const limited = await checkRateLimit(auth2, rateLimiter, ip, endpoint.path);
      if (limited) return limited;
      const body = method === "GET" ? {} : await request.readBody(auth2.options.advanced.maxBodyBytes, endpoint.acceptsForm === true);
      const outcome = await runEndpoint(auth2, endpoint, method, {
        body,
        query: url.search === "" ? {} : Object.fromEntries(url.searchParams),
        params,
        headers: request.headers,
        ip,
        isServerCall: false
      });
      return outcomeToReply(outcome);
    } catch (error) {
      return errorReply(auth2, error);
    }
  }
}
async function checkRateLimit(auth2, limiter, ip, path) {
  if (!auth2.options.rateLimit.enabled) return null;
  const rule = ruleForPath(path, auth2.options.rateLimit);
  if (!rule) return null;
  const decision = await limiter.hit(`${rateLimitAddress(ip)}|${path}`, rule, auth2.now());
  if (decision.allowed) return null;
  const reply = jsonReply(429, new AuthError("TOO_MANY_REQUESTS").toJSON());
  reply.headers["x-retry-after"] = String(decision.retryAfterSeconds);
  return reply;
}

// packages/auth-core/src/mail/outbox.ts
var DEFAULT_LIMIT = 100;
function createDevOutbox(options = {}) {
  const print = options.print ?? ((line) => console.info(line));
  const limit = options.limit ?? DEFAULT_LIMIT;
  const now = options.now ?? (() => /* @__PURE__ */ new Date());
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error("createDevOutbox: options.limit must be a positive integer");
  }
  let entries = [];
  return {
    async send(message) {
      const entry = { ...message, sentAt: now() };
      entries.push(entry);
      if (entries.length > limit) {
        entries = entries.slice(entries.length - limit);
      }
      for (const line of formatOutboxEntry(entry)) {
        print(line);
      }
    },
    messages() {
      return [...entries];
    },
    latestTo(email) {
      const wanted = normalizeEmail(email);
      return entries.findLast((entry) => normalizeEmail(entry.to) === wanted) ?? null;
    },
    clear() {
      entries = [];
    }
  };
}
function formatOutboxEntry(entry) {
  return [
    `[mail] ${entry.kind} to ${entry.to} at ${entry.sentAt.toISOString()}`,
    `Subject: ${entry.subject}`,
    ...entry.text.split("\n").map((line) => `  ${line}`)
  ];
}
function normalizeEmail(email) {
  return email.trim().toLowerCase();
}

// packages/auth-core/src/create-auth.ts
function cookieNames(prefix, secure) {
  const full = (name) => `${secure ? "__Secure-" : ""}${prefix}.${name}`;
  return {
    sessionToken: full("session_token"),
    sessionData: full("session_data"),
    dontRemember: full("dont_remember")
  };
}
function createAuth(input) {
  const options = resolveOptions(input);
  const database = connectDatabase(options.database);
  const collections = openCollections(database.db);
  const secureCookies = options.advanced.useSecureCookies ?? options.baseURL?.startsWith("https://") ?? false;
  const origin = options.baseURL ? new URL(options.baseURL).origin : "http://localhost:3000";
  const context = {
    options,
    collections,
    mailer: options.mailer ?? createDevOutbox({ print: (line) => options.logger.info(line) }),
    origins: createOriginMatcher(options.baseURL, options.trustedOrigins),
    cookies: cookieNames(options.advanced.cookiePrefix, secureCookies),
    secureCookies,
    apiURL: `${origin}${options.basePath}`,
    now: options.clock
  };
  const endpoints = coreEndpoints;
  const rateLimiter = options.rateLimit.storage === "database" ? createDatabaseRateLimiter(collections) : createMemoryRateLimiter();
  return {
    handler: createHandler(context, endpoints, rateLimiter),
    api: createApi(context, endpoints),
    endpoints,
    migrate: () => runMigrations(collections, CORE_MIGRATIONS, context.now),
    cleanup: () => cleanupExpired(collections, context.now()),
    close: () => database.close(),
    context
  };
}

// packages/auth-core/src/mail/smtp.ts
import { createTransport } from "nodemailer";

// packages/auth-core/src/server/request-headers.ts
var HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
var EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
var RequestHeaders = class extends Headers {
  /** Name/value pairs not yet copied into the Headers object; null once it is filled. */
  #raw;
  #byName = null;
  constructor(rawHeaders) {
    super();
    this.#raw = rawHeaders;
  }
  get(name) {
    if (this.#raw === null) return super.get(name);
    return this.#lookup().get(checkName(name)) ?? null;
  }
  has(name) {
    if (this.#raw === null) return super.has(name);
    return this.#lookup().has(checkName(name));
  }
  append(name, value) {
    this.#fill();
    super.append(name, value);
  }
  set(name, value) {
    this.#fill();
    super.set(name, value);
  }
  delete(name) {
    this.#fill();
    super.delete(name);
  }
  getSetCookie() {
    this.#fill();
    return super.getSetCookie();
  }
  forEach(callback, thisArg) {
    this.#fill();
    super.forEach(callback, thisArg);
  }
  entries() {
    this.#fill();
    return super.entries();
  }
  keys() {
    this.#fill();
    return super.keys();
  }
  values() {
    this.#fill();
    return super.values();
  }
  [Symbol.iterator]() {
    this.#fill();
    return super[Symbol.iterator]();
  }
  #lookup() {
    if (this.#byName) return this.#byName;
    const byName = /* @__PURE__ */ new Map();
    const raw2 = this.#raw ?? [];
    for (let index = 0; index + 1 < raw2.length; index += 2) {
      const name = raw2[index].toLowerCase();
      const value = normalizeValue(raw2[index + 1]);
      const earlier = byName.get(name);
      if (earlier === void 0) byName.set(name, value);
      else byName.set(name, `${earlier}${name === "cookie" ? "; " : ", "}${value}`);
    }
    this.#byName = byName;
    return byName;
  }
  #fill() {
    const raw2 = this.#raw;
    if (raw2 === null) return;
    this.#raw = null;
    this.#byName = null;
    for (let index = 0; index + 1 < raw2.length; index += 2) super.append(raw2[index], raw2[index + 1]);
  }
};
function checkName(name) {
  if (!HEADER_NAME.test(name)) throw new TypeError(`Invalid header name: "${name}"`);
  return name.toLowerCase();
}
function normalizeValue(value) {
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const isEdge = (code) => code === 9 || code === 10 || code === 13 || code === 32;
  return value.length > 0 && (isEdge(first) || isEdge(last)) ? value.replace(EDGE_WHITESPACE, "") : value;
}

// packages/auth-core/.perf/micro2.ts
var auth = createAuth({ database: { uri: process.env.MONGO_URI, dbName: "probe_" + Date.now() }, secret: "bench-secret-0123456789abcdef0123456789abcdef", baseURL: "http://localhost:3000", rateLimit: { enabled: false }, session: { cookieCache: { enabled: true } }, logger: { info() {
}, warn() {
}, error() {
} } });
await auth.migrate();
var engine = engineOf(auth.handler);
var base = "http://localhost:3000/api/auth";
var post = (p, b) => auth.handler(new Request(base + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) }));
await post("/sign-up/email", { email: "m@example.com", password: "bench-password-1", name: "M" });
var r = await post("/sign-in/email", { email: "m@example.com", password: "bench-password-1" });
var cookie = r.headers.getSetCookie().map((l) => l.split(";")[0]).join("; ");
var raw = ["Host", "127.0.0.1:3000", "Content-Type", "application/json", "cookie", cookie, "User-Agent", "autocannon"];
var once = async () => (await engine({ method: "GET", url: new URL("http://localhost:3000/api/auth/get-session"), headers: new RequestHeaders(raw.slice()), remoteAddress: "127.0.0.1", readBody: async () => ({}) })).body;
var N = Number(process.env.N ?? 2e5);
var C = 10;
for (let i = 0; i < 2e4; i++) await once();
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  await Promise.all(Array.from({ length: C }, async () => {
    for (let i = 0; i < N / C; i++) await once();
  }));
  console.log(((performance.now() - t) * 1e3 / N).toFixed(2), "us/req");
}
await auth.close();
process.exit(0);
