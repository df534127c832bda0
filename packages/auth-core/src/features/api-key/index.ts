import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { createApiKeyEndpoint } from "./endpoints/create.ts";
import { deleteApiKeyEndpoint } from "./endpoints/delete.ts";
import { getApiKeyEndpoint } from "./endpoints/get.ts";
import { listApiKeysEndpoint } from "./endpoints/list.ts";
import { updateApiKeyEndpoint } from "./endpoints/update.ts";
import { verifyApiKeyEndpoint } from "./endpoints/verify.ts";

const apiKeyList = [
  createApiKeyEndpoint,
  getApiKeyEndpoint,
  listApiKeysEndpoint,
  updateApiKeyEndpoint,
  deleteApiKeyEndpoint,
  verifyApiKeyEndpoint,
] as const;
export const apiKeyEndpoints = apiKeyList as unknown as AnyEndpoint[];
/** The `auth.api` method names of this feature. */
export type ApiKeyEndpointName = (typeof apiKeyList)[number]["name"];
