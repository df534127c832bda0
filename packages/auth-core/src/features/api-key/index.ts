import type { AnyEndpoint } from "../../http/define-endpoint.ts";
import { createApiKeyEndpoint } from "./endpoints/create.ts";
import { deleteApiKeyEndpoint } from "./endpoints/delete.ts";
import { getApiKeyEndpoint } from "./endpoints/get.ts";
import { listApiKeysEndpoint } from "./endpoints/list.ts";
import { updateApiKeyEndpoint } from "./endpoints/update.ts";
import { verifyApiKeyEndpoint } from "./endpoints/verify.ts";

export const apiKeyEndpoints = [
  createApiKeyEndpoint,
  getApiKeyEndpoint,
  listApiKeysEndpoint,
  updateApiKeyEndpoint,
  deleteApiKeyEndpoint,
  verifyApiKeyEndpoint,
] as unknown as AnyEndpoint[];
