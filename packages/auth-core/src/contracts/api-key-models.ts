import { z } from "zod";
import { defineModel, type ModelValue, modelShape } from "./model.ts";

/**
 * The shapes the API-key endpoints answer with (the field names of Better Auth's API-key plugin),
 * each a named interface with a schema annotated to produce exactly it (see models.ts).
 */

/**
 * An API key as the API shows it, declared once: its API value, schema and stored document
 * (db/documents.ts ApiKeyDoc) and its mapper (features/api-key/types.ts) come from this list, in this
 * order. Never the key itself nor its hash: the key is shown once, by create, as `CreatedApiKey.key`.
 * `remaining` (uses left in the current period; null when unlimited) is counted by the service from
 * the use claims; the stored `remaining` is the first period's budget. `refillInterval` and
 * `rateLimitTimeWindow` are milliseconds; `metadata` is stored as JSON text.
 */
export const apiKeyModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "userId", kind: "objectId" },
  { key: "name", kind: "string", nullable: true },
  { key: "prefix", kind: "string", nullable: true },
  { key: "start", kind: "string", nullable: true },
  { key: "enabled", kind: "boolean" },
  { key: "expiresAt", kind: "date", nullable: true },
  { key: "remaining", kind: "number", nullable: true, computed: true },
  { key: "refillAmount", kind: "number", nullable: true },
  { key: "refillInterval", kind: "number", nullable: true },
  { key: "rateLimitEnabled", kind: "boolean" },
  { key: "rateLimitTimeWindow", kind: "number" },
  { key: "rateLimitMax", kind: "number" },
  { key: "permissions", kind: "permissionMap", nullable: true },
  { key: "metadata", kind: "jsonObject", nullable: true },
  { key: "createdAt", kind: "date" },
  { key: "updatedAt", kind: "date" },
]);

export type ApiKey = ModelValue<typeof apiKeyModel>;

const apiKeyFields = modelShape(apiKeyModel);

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
