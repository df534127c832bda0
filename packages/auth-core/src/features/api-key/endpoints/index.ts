import type { AnyEndpoint } from "../../../http/define-endpoint.ts";
import { createApiKeyEndpoint } from "./create.ts";
import { deleteApiKeyEndpoint } from "./delete.ts";
import { getApiKeyEndpoint } from "./get.ts";
import { listApiKeysEndpoint } from "./list.ts";
import { updateApiKeyEndpoint } from "./update.ts";
import { verifyApiKeyEndpoint } from "./verify.ts";

const apiKeyList = [
  createApiKeyEndpoint,
  getApiKeyEndpoint,
  listApiKeysEndpoint,
  updateApiKeyEndpoint,
  deleteApiKeyEndpoint,
  verifyApiKeyEndpoint,
] as const;
export const apiKeyEndpoints: readonly AnyEndpoint[] = apiKeyList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type ApiKeyEndpoint = (typeof apiKeyList)[number];
