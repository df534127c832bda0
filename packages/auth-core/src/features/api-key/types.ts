import type { ApiKey } from "../../contracts/api-key-models.ts";
import type { ApiKeyDoc } from "../../db/documents.ts";

/** The API shapes live with the contracts, which a browser bundle can import. */
export type {
  ApiKey,
  ApiKeyList,
  ApiKeyVerification,
  CreatedApiKey,
} from "../../contracts/api-key-models.ts";

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
