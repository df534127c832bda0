import { z } from "zod";

/**
 * The shapes the API-key endpoints answer with (the field names of Better Auth's API-key plugin),
 * each a named interface with a schema annotated to produce exactly it (see models.ts).
 */

/**
 * An API key as the API shows it. Never the key itself nor its hash: the key is shown once, by
 * create, as `CreatedApiKey.key`.
 */
export interface ApiKey {
  id: string;
  userId: string;
  name: string | null;
  prefix: string | null;
  start: string | null;
  enabled: boolean;
  expiresAt: Date | null;
  /** Uses left in the current period; null when unlimited. */
  remaining: number | null;
  refillAmount: number | null;
  /** Milliseconds. */
  refillInterval: number | null;
  rateLimitEnabled: boolean;
  /** Milliseconds. */
  rateLimitTimeWindow: number;
  rateLimitMax: number;
  permissions: Record<string, string[]> | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
}

const apiKeyFields = {
  id: z.string(),
  userId: z.string(),
  name: z.string().nullable(),
  prefix: z.string().nullable(),
  start: z.string().nullable(),
  enabled: z.boolean(),
  expiresAt: z.date().nullable(),
  remaining: z.number().nullable(),
  refillAmount: z.number().nullable(),
  refillInterval: z.number().nullable(),
  rateLimitEnabled: z.boolean(),
  rateLimitTimeWindow: z.number(),
  rateLimitMax: z.number(),
  permissions: z.record(z.string(), z.array(z.string())).nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
};

export const apiKeySchema: z.ZodType<ApiKey> = z.strictObject(apiKeyFields);

export interface CreatedApiKey extends ApiKey {
  /** The full key: shown once, here, and stored nowhere. */
  key: string;
}

export const createdApiKeySchema: z.ZodType<CreatedApiKey> = z.strictObject({
  ...apiKeyFields,
  key: z.string(),
});

/** One page of the caller's keys, newest first, with the total (Better Auth's list answer). */
export interface ApiKeyList {
  apiKeys: ApiKey[];
  total: number;
  limit: number;
  offset: number;
}

export const apiKeyListSchema: z.ZodType<ApiKeyList> = z.strictObject({
  apiKeys: z.array(apiKeySchema),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
});

/** Why a key was refused: a catalogue error as the HTTP layer would serialise it. */
export interface ApiKeyRefusal {
  code: string;
  message: string;
  /** Milliseconds until the key's rate limit admits a use again (API_KEY_RATE_LIMITED only). */
  tryAgainIn?: number;
}

/** Verification answers a refusal rather than throwing it: `valid` false with `error`, `key` null. */
export interface ApiKeyVerification {
  valid: boolean;
  error: ApiKeyRefusal | null;
  key: ApiKey | null;
}

export const apiKeyVerificationSchema: z.ZodType<ApiKeyVerification> = z.strictObject({
  valid: z.boolean(),
  error: z
    .strictObject({ code: z.string(), message: z.string(), tryAgainIn: z.number().optional() })
    .nullable(),
  key: apiKeySchema.nullable(),
});
