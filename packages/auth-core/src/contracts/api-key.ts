import { z } from "zod";
import type { ErrorCode } from "../errors/catalogue.ts";
import {
  expiresInField,
  keyIdField,
  limitFields,
  metadataField,
  nameField,
  permissionsField,
  prefixField,
  refillComplete,
} from "./api-key-fields.ts";
import {
  apiKeyListSchema,
  apiKeySchema,
  apiKeyVerificationSchema,
  createdApiKeySchema,
} from "./api-key-models.ts";
import { defineContract } from "./contract.ts";
import { successTrueSchema } from "./models.ts";

/**
 * What an API key standing for a session (`apiKey.enableSessionForAPIKeys`) may answer on an endpoint
 * that reads a caller: the key refused, or its owner banned. http/served-errors.ts adds these to every
 * endpoint that reads a caller, where keys stand for sessions.
 */
export const API_KEY_CALLER_ERRORS = [
  "API_KEY_INVALID",
  "API_KEY_DISABLED",
  "API_KEY_EXPIRED",
  "API_KEY_RATE_LIMITED",
  "API_KEY_USAGE_EXCEEDED",
  "API_KEY_UPDATE_FAILED",
  "BANNED_USER",
] as const satisfies readonly ErrorCode[];

/** Query numbers arrive as strings over HTTP and as numbers from server code. */
const pageNumber = z.coerce.number().int().min(0);

export const createApiKeyContract = defineContract({
  name: "createApiKey",
  method: "POST",
  path: "/api-key/create",
  // Optional: server code may create a key for a named `userId` without a session; over HTTP the
  // handler requires one (features/api-key/endpoints/guards.ts).
  auth: "optional",
  httpCredentials: ["session"],
  body: z
    .strictObject({
      name: nameField.optional(),
      prefix: prefixField.optional(),
      expiresIn: expiresInField.nullable().optional(),
      metadata: metadataField.nullable().optional(),
      ...limitFields,
    })
    .refine(refillComplete, {
      message: "refillAmount and refillInterval go together",
      path: ["refillAmount"],
    }),
  response: createdApiKeySchema,
  errors: [
    "UNAUTHORIZED",
    "NOT_AUTHORIZED",
    "NOT_ALLOWED_WHILE_IMPERSONATING",
    "USER_NOT_FOUND",
    "USER_ID_OR_SESSION_REQUIRED",
    "API_KEY_EXPIRES_IN_TOO_SMALL",
    "API_KEY_EXPIRES_IN_TOO_LARGE",
    "SESSION_NOT_FRESH",
  ],
  summary: "Creates an API key for the caller and answers it with the full key, shown this once.",
  notes:
    "Answers the key, shown once; limits and `userId` from server code only; a session caller must be fresh.",
  tags: ["api-key"],
});

export const getApiKeyContract = defineContract({
  name: "getApiKey",
  method: "GET",
  path: "/api-key/get",
  auth: "session",
  query: z.strictObject({ id: keyIdField }),
  response: apiKeySchema,
  errors: ["API_KEY_NOT_FOUND"],
  summary: "One of the caller's API keys, without the key itself.",
  tags: ["api-key"],
});

export const listApiKeysContract = defineContract({
  name: "listApiKeys",
  method: "GET",
  path: "/api-key/list",
  auth: "session",
  query: z.strictObject({ limit: pageNumber.max(100).optional(), offset: pageNumber.optional() }),
  response: apiKeyListSchema,
  errors: [],
  summary: "The caller's API keys, newest first, at most 100 a page, with the total.",
  tags: ["api-key"],
});

export const updateApiKeyContract = defineContract({
  name: "updateApiKey",
  method: "POST",
  path: "/api-key/update",
  // Optional for the same reason as create: server code may name the owner.
  auth: "optional",
  httpCredentials: ["session"],
  body: z
    .strictObject({
      keyId: keyIdField,
      name: nameField.optional(),
      enabled: z.boolean().optional(),
      expiresIn: expiresInField.nullable().optional(),
      metadata: metadataField.nullable().optional(),
      ...limitFields,
    })
    .refine(refillComplete, {
      message: "refillAmount and refillInterval go together",
      path: ["refillAmount"],
    }),
  response: apiKeySchema,
  errors: [
    "UNAUTHORIZED",
    "NOT_AUTHORIZED",
    "NOT_ALLOWED_WHILE_IMPERSONATING",
    "USER_NOT_FOUND",
    "USER_ID_OR_SESSION_REQUIRED",
    "API_KEY_NOT_FOUND",
    "NO_FIELDS_TO_UPDATE",
    "API_KEY_EXPIRES_IN_TOO_SMALL",
    "API_KEY_EXPIRES_IN_TOO_LARGE",
    "SESSION_NOT_FRESH",
  ],
  summary: "Changes one of the caller's API keys (name, enabled, expiry, metadata) and answers it.",
  notes: "Limits and `userId` from server code only.",
  tags: ["api-key"],
});

export const deleteApiKeyContract = defineContract({
  name: "deleteApiKey",
  method: "POST",
  path: "/api-key/delete",
  auth: "session",
  body: z.strictObject({ keyId: keyIdField }),
  response: successTrueSchema,
  errors: ["NOT_ALLOWED_WHILE_IMPERSONATING", "API_KEY_NOT_FOUND"],
  summary: "Deletes one of the caller's API keys.",
  tags: ["api-key"],
});

export const verifyApiKeyContract = defineContract({
  name: "verifyApiKey",
  method: "POST",
  path: "/api-key/verify",
  auth: "server-only",
  body: z.strictObject({ key: z.string().max(4096), permissions: permissionsField.optional() }),
  response: apiKeyVerificationSchema,
  // A refused key is an answer (`valid: false` with the catalogue error), never a thrown error.
  errors: [],
  summary: "Server only: checks a key (and its permissions) and counts one use when it is valid.",
  notes: "Answers `{ valid, error, key }`.",
  tags: ["api-key"],
});
