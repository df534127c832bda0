import type { ApiKeyDoc } from "../../db/documents.ts";

/**
 * An API key as the API shows it (the field names of Better Auth's API-key plugin). Never the key
 * itself nor its hash: the key is shown once, by create, as `CreatedApiKey.key`.
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
  refillInterval: number | null;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number;
  rateLimitMax: number;
  permissions: Record<string, string[]> | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CreatedApiKey extends ApiKey {
  /** The full key: shown once, here, and stored nowhere. */
  key: string;
}

/** `remaining` is the current period's count, computed by the service from the use claims. */
export function toApiKey(doc: ApiKeyDoc, remaining: number | null): ApiKey {
  return {
    id: doc._id.toHexString(),
    userId: doc.userId.toHexString(),
    name: doc.name,
    prefix: doc.prefix,
    start: doc.start,
    enabled: doc.enabled,
    expiresAt: doc.expiresAt,
    remaining,
    refillAmount: doc.refillAmount,
    refillInterval: doc.refillInterval,
    rateLimitEnabled: doc.rateLimitEnabled,
    rateLimitTimeWindow: doc.rateLimitTimeWindow,
    rateLimitMax: doc.rateLimitMax,
    permissions: doc.permissions,
    metadata: doc.metadata === null ? null : (JSON.parse(doc.metadata) as Record<string, unknown>),
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
