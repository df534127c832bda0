import type { AuthContext } from "../../context.ts";
import type { ApiKeyDoc } from "../../db/documents.ts";
import { granted, type Outcome } from "../../errors/refusal.ts";
import type { ExpiryRefusal } from "./rules.ts";
import { type NewApiKeyInput, readRemainingUses, resolveExpiry } from "./service.ts";

/**
 * The fields update accepts once validated (limits from server code only, endpoints/update.ts):
 * create's fields but the prefix (part of the key already handed out), plus `enabled`.
 * `expiresIn` counts from now; null removes the expiry.
 */
export type ApiKeyUpdateInput = Omit<NewApiKeyInput, "prefix"> & { enabled?: boolean | undefined };

/**
 * The `$set` for an update, or null when the input changes nothing; refused for an `expiresIn`
 * outside the configured bounds (before anything is read). Touching the usage limits starts
 * a new budget (`usageResetAt` = now, so its claims live under a new prefix, rules.ts): `remaining`
 * is the given count, else what is left now, else (a first refill) the refill amount.
 */
export async function buildKeyUpdate(
  auth: AuthContext,
  doc: ApiKeyDoc,
  input: ApiKeyUpdateInput,
): Promise<Outcome<Partial<ApiKeyDoc> | null, ExpiryRefusal>> {
  const now = auth.now();
  const change: Partial<ApiKeyDoc> = {};
  if (input.name !== undefined) change.name = input.name;
  if (input.enabled !== undefined) change.enabled = input.enabled;
  if (input.expiresIn !== undefined) {
    const expiry = resolveExpiry(auth, input.expiresIn, now);
    if (!expiry.ok) return expiry;
    change.expiresAt = expiry.value;
  }
  if (input.metadata !== undefined)
    change.metadata = input.metadata === null ? null : JSON.stringify(input.metadata);
  if (input.rateLimitEnabled !== undefined) change.rateLimitEnabled = input.rateLimitEnabled;
  if (input.rateLimitTimeWindow !== undefined) change.rateLimitTimeWindow = input.rateLimitTimeWindow;
  if (input.rateLimitMax !== undefined) change.rateLimitMax = input.rateLimitMax;
  if (input.permissions !== undefined) change.permissions = input.permissions;
  if (input.remaining !== undefined || input.refillAmount !== undefined) {
    const left = input.remaining !== undefined ? input.remaining : await readRemainingUses(auth, doc);
    change.remaining = left ?? input.refillAmount ?? null;
    if (input.refillAmount !== undefined) {
      change.refillAmount = input.refillAmount;
      change.refillInterval = input.refillInterval ?? null;
    }
    change.usageResetAt = now;
  }
  if (Object.keys(change).length === 0) return granted(null);
  change.updatedAt = now;
  return granted(change);
}
