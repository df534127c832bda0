import type { AuthContext } from "../../context.ts";
import type { ApiKeyDoc } from "../../db/documents.ts";
import { readRemainingUses, resolveExpiry } from "./service.ts";

/** The fields update accepts once validated (limits from server code only, endpoints/update.ts). */
export interface ApiKeyUpdateInput {
  name?: string | undefined;
  enabled?: boolean | undefined;
  /** Seconds from now; null removes the expiry. */
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

/**
 * The `$set` for an update, or null when the input changes nothing. Touching the usage limits starts
 * a new budget (`usageResetAt` = now, so its claims live under a new prefix, rules.ts): `remaining`
 * is the given count, else what is left now, else (a first refill) the refill amount.
 */
export async function buildKeyUpdate(
  auth: AuthContext,
  doc: ApiKeyDoc,
  input: ApiKeyUpdateInput,
): Promise<Partial<ApiKeyDoc> | null> {
  const now = auth.now();
  const change: Partial<ApiKeyDoc> = {};
  if (input.name !== undefined) change.name = input.name;
  if (input.enabled !== undefined) change.enabled = input.enabled;
  if (input.expiresIn !== undefined) change.expiresAt = resolveExpiry(auth, input.expiresIn, now);
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
  if (Object.keys(change).length === 0) return null;
  change.updatedAt = now;
  return change;
}
