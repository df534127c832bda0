import type { AuthContext } from "../../context.ts";
import { ALPHANUMERIC, generateRandomString } from "../../crypto/index.ts";
import type { AfterCollections } from "../../db/collections.ts";
import type { ApiKeyDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { granted, type Outcome, refused } from "../../errors/refusal.ts";
import { checkExpiresIn, currentUsagePeriod, type ExpiryRefusal, hashApiKey, keyStart } from "./rules.ts";
import * as stored from "./store.ts";
import { deleteSessionMintedApiKeys, deleteUserApiKeys, insertApiKey, readUsedSlots } from "./store.ts";
import { type ApiKey, type CreatedApiKey, toApiKey } from "./types.ts";

/** What create accepts once validated; the limit fields come from server code only (endpoints). */
export interface NewApiKeyInput {
  name?: string | undefined;
  prefix?: string | undefined;
  /** Seconds; null: never expires; undefined: the configured default. */
  expiresIn?: number | null | undefined;
  metadata?: Record<string, unknown> | null | undefined;
  remaining?: number | null | undefined;
  refillAmount?: number | undefined;
  refillInterval?: number | undefined;
  rateLimitEnabled?: boolean | undefined;
  rateLimitTimeWindow?: number | undefined;
  rateLimitMax?: number | undefined;
  permissions?: Record<string, string[]> | null | undefined;
}

/** Seconds from now, within the configured bounds; null stays null (no expiry). */
export function resolveExpiry(
  auth: AuthContext,
  expiresIn: number | null,
  now: Date,
): Outcome<Date | null, ExpiryRefusal> {
  if (expiresIn === null) return granted(null);
  const refusal = checkExpiresIn(expiresIn, auth.options.apiKey.keyExpiration);
  if (refusal) return refused(refusal);
  return granted(new Date(now.getTime() + expiresIn * 1000));
}

/**
 * Creates a key for `userId` (an existing user: the caller's check) and returns it with the full key — the only time the
 * key exists outside the caller's hands: only its hash and `start` are stored (docs/decisions/).
 * `createdFromSession` marks a key minted by a signed-in session, which signing out everywhere revokes.
 */
export async function createApiKey(
  auth: AuthContext,
  userId: ObjectId,
  input: NewApiKeyInput,
  createdFromSession: boolean,
): Promise<Outcome<CreatedApiKey, ExpiryRefusal>> {
  const config = auth.options.apiKey;
  const now = auth.now();
  // Only an absent expiresIn takes the default; an explicit null asks for a key that never expires.
  const expiresIn = input.expiresIn === undefined ? config.keyExpiration.defaultExpiresIn : input.expiresIn;
  const expiry = resolveExpiry(auth, expiresIn, now);
  if (!expiry.ok) return expiry;
  const expiresAt = expiry.value;
  const prefix = input.prefix ?? config.defaultPrefix ?? null;
  const key = (prefix ?? "") + generateRandomString(config.defaultKeyLength, ALPHANUMERIC);
  // Better Auth: a refill without an explicit first budget starts with the refill amount.
  const remaining = input.remaining !== undefined ? input.remaining : (input.refillAmount ?? null);
  const doc: ApiKeyDoc = {
    _id: new ObjectId(),
    userId,
    name: input.name ?? null,
    prefix,
    start: keyStart(key, config.startingCharactersLength),
    keyHash: hashApiKey(key),
    enabled: true,
    expiresAt,
    remaining,
    refillAmount: input.refillAmount ?? null,
    refillInterval: input.refillInterval ?? null,
    usageResetAt: now,
    rateLimitEnabled: input.rateLimitEnabled ?? config.rateLimit.enabled,
    rateLimitTimeWindow: input.rateLimitTimeWindow ?? config.rateLimit.timeWindow,
    rateLimitMax: input.rateLimitMax ?? config.rateLimit.maxRequests,
    permissions: input.permissions ?? null,
    metadata: input.metadata == null ? null : JSON.stringify(input.metadata),
    createdFromSession,
    createdAt: now,
    updatedAt: now,
  };
  await insertApiKey(auth.collections, doc);
  return granted({ ...toApiKey(doc, remaining), key });
}

/** Uses left in the key's current period (one read of its newest claim), or null when unlimited. */
export async function readRemainingUses(auth: AuthContext, doc: ApiKeyDoc): Promise<number | null> {
  const period = currentUsagePeriod(doc._id.toHexString(), doc, auth.now());
  if (period === null) return null;
  const used = await readUsedSlots(auth.collections, period.claimPrefix);
  return Math.max(0, period.budget - used);
}

/**
 * Revokes (deletes) the keys the user's sessions minted; keys server code created for them stay.
 * Part of signing out everywhere (features/sign-out-everywhere.ts). Returns how many went.
 */
export function revokeSessionMintedKeys(auth: AuthContext, userId: ObjectId): Promise<number> {
  return deleteSessionMintedApiKeys(auth.collections, userId);
}

export async function presentApiKey(auth: AuthContext, doc: ApiKeyDoc): Promise<ApiKey> {
  return toApiKey(doc, await readRemainingUses(auth, doc));
}

/** User deletion (a UserDataRemover, see context.ts): every key of the user and their use rows. */
export async function deleteUserApiKeyData(auth: AuthContext, userId: ObjectId): Promise<void> {
  await deleteUserApiKeys(auth.collections, userId);
}

/*
 * Reads and writes the endpoints make as they are: the store's, with this instance's collections
 * (endpoints call services, never the store).
 */

export function countUserApiKeys(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.countUserApiKeys>
): ReturnType<typeof stored.countUserApiKeys> {
  return stored.countUserApiKeys(auth.collections, ...args);
}

export function deleteKeyUses(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.deleteKeyUses>
): ReturnType<typeof stored.deleteKeyUses> {
  return stored.deleteKeyUses(auth.collections, ...args);
}

export function deleteUserApiKey(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.deleteUserApiKey>
): ReturnType<typeof stored.deleteUserApiKey> {
  return stored.deleteUserApiKey(auth.collections, ...args);
}

export function findUserApiKey(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.findUserApiKey>
): ReturnType<typeof stored.findUserApiKey> {
  return stored.findUserApiKey(auth.collections, ...args);
}

export function listUserApiKeys(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.listUserApiKeys>
): ReturnType<typeof stored.listUserApiKeys> {
  return stored.listUserApiKeys(auth.collections, ...args);
}

export function updateUserApiKey(
  auth: AuthContext,
  ...args: AfterCollections<typeof stored.updateUserApiKey>
): ReturnType<typeof stored.updateUserApiKey> {
  return stored.updateUserApiKey(auth.collections, ...args);
}
