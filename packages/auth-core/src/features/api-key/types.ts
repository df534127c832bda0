import { type ApiKey, apiKeyModel } from "../../contracts/api-key-models.ts";
import type { ApiKeyDoc } from "../../db/documents.ts";
import { toModelValue } from "../../db/model.ts";

/** The API shapes live with the contracts, which a browser bundle can import. */
export type {
  ApiKey,
  ApiKeyList,
  ApiKeyVerification,
  CreatedApiKey,
} from "../../contracts/api-key-models.ts";

/** `remaining` is the current period's count, computed by the service from the use claims. */
export function toApiKey(doc: ApiKeyDoc, remaining: number | null): ApiKey {
  return toModelValue(apiKeyModel, doc, { remaining });
}
