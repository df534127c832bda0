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
export const apiKeyEndpoints: readonly AnyEndpoint[] = apiKeyList;
/** The endpoints of this feature, with their types (the keys and signatures of `auth.api`). */
export type ApiKeyEndpoint = (typeof apiKeyList)[number];

export { deleteUserApiKeyData } from "./service.ts";
// The face other features use: whether a caller is an API key rather than a session.
export { isApiKeySession } from "./session-bridge.ts";
