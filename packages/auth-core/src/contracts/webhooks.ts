import { z } from "zod";
import type { ErrorCode } from "../errors/catalogue.ts";
import { defineContract } from "./contract.ts";
import { successTrueSchema } from "./models.ts";
import {
  createdWebhookEndpointSchema,
  webhookDeliverySchema,
  webhookDescriptionField,
  webhookEndpointIdField,
  webhookEndpointSchema,
  webhookEventTypesField,
  webhookScopeField,
  webhookUrlField,
} from "./webhook-models.ts";

/**
 * Webhook endpoints (features/webhooks, docs/security.md "Webhooks"). Every call names its scope:
 * without `organizationId` the app-wide endpoints (the admin area's `webhook: ["manage"]`), with it
 * that organization's (its owners and admins). An endpoint of another scope is not found.
 */

/** What every webhook endpoint may answer: the scope's refusals and the feature being off. */
const SCOPE_ERRORS = [
  "UNAUTHORIZED",
  "WEBHOOKS_NOT_ENABLED",
  "RESOURCE_ACCESS_NOT_ALLOWED",
  "NOT_ALLOWED_WHILE_IMPERSONATING",
  "ORGANIZATION_NOT_FOUND",
  "NOT_A_MEMBER_OF_ORGANIZATION",
  "WEBHOOK_MANAGE_NOT_ALLOWED",
] as const satisfies readonly ErrorCode[];

const pageLimit = z.coerce.number().int().min(1).max(100);
const ORGANIZATION_TYPES_NOTE =
  "An organization's endpoint (organizationId given) may name only the organization's event types (`organization.`, `member.`, `invitation.`, `team.` and `team_member.` ones); with no eventTypes it receives all of them.";
const endpointRef = { organizationId: webhookScopeField, endpointId: webhookEndpointIdField };

export const createWebhookEndpointContract = defineContract({
  name: "createWebhookEndpoint",
  method: "POST",
  path: "/webhooks/create",
  auth: "session",
  body: z.strictObject({
    organizationId: webhookScopeField,
    url: webhookUrlField,
    eventTypes: webhookEventTypesField.optional(),
    description: webhookDescriptionField.optional(),
  }),
  response: createdWebhookEndpointSchema,
  errors: [...SCOPE_ERRORS, "INVALID_WEBHOOK_URL", "WEBHOOK_EVENT_TYPE_NOT_ORGANIZATION"],
  summary: "Registers a webhook endpoint and answers it with its signing secret, shown this once.",
  notes: ORGANIZATION_TYPES_NOTE,
  tags: ["webhooks"],
});

export const listWebhookEndpointsContract = defineContract({
  name: "listWebhookEndpoints",
  method: "GET",
  path: "/webhooks/list",
  auth: "session",
  query: z.strictObject({ organizationId: webhookScopeField }),
  response: z.array(webhookEndpointSchema),
  errors: SCOPE_ERRORS,
  summary: "The scope's webhook endpoints, oldest first.",
  tags: ["webhooks"],
});

export const getWebhookEndpointContract = defineContract({
  name: "getWebhookEndpoint",
  method: "GET",
  path: "/webhooks/get",
  auth: "session",
  query: z.strictObject(endpointRef),
  response: webhookEndpointSchema,
  errors: [...SCOPE_ERRORS, "WEBHOOK_ENDPOINT_NOT_FOUND"],
  summary: "One webhook endpoint of the scope.",
  tags: ["webhooks"],
});

export const updateWebhookEndpointContract = defineContract({
  name: "updateWebhookEndpoint",
  method: "POST",
  path: "/webhooks/update",
  auth: "session",
  body: z.strictObject({
    ...endpointRef,
    url: webhookUrlField.optional(),
    eventTypes: webhookEventTypesField.optional(),
    description: webhookDescriptionField.optional(),
    enabled: z.boolean().optional(),
  }),
  response: webhookEndpointSchema,
  errors: [
    ...SCOPE_ERRORS,
    "WEBHOOK_ENDPOINT_NOT_FOUND",
    "INVALID_WEBHOOK_URL",
    "WEBHOOK_EVENT_TYPE_NOT_ORGANIZATION",
    "NO_FIELDS_TO_UPDATE",
  ],
  summary: "Changes a webhook endpoint's URL, event types, description, or enables or disables it.",
  notes: `Enabling clears the reason a disabled endpoint was disabled for and its failure run. ${ORGANIZATION_TYPES_NOTE}`,
  tags: ["webhooks"],
});

export const deleteWebhookEndpointContract = defineContract({
  name: "deleteWebhookEndpoint",
  method: "POST",
  path: "/webhooks/delete",
  auth: "session",
  body: z.strictObject(endpointRef),
  response: successTrueSchema,
  errors: [...SCOPE_ERRORS, "WEBHOOK_ENDPOINT_NOT_FOUND"],
  summary: "Removes a webhook endpoint and its deliveries.",
  tags: ["webhooks"],
});

export const rotateWebhookSecretContract = defineContract({
  name: "rotateWebhookSecret",
  method: "POST",
  path: "/webhooks/rotate-secret",
  auth: "session",
  body: z.strictObject(endpointRef),
  response: createdWebhookEndpointSchema,
  errors: [...SCOPE_ERRORS, "WEBHOOK_ENDPOINT_NOT_FOUND"],
  summary: "Gives a webhook endpoint a new secret, shown this once; the previous one signs too for 24 hours.",
  tags: ["webhooks"],
});

export const testWebhookEndpointContract = defineContract({
  name: "testWebhookEndpoint",
  method: "POST",
  path: "/webhooks/test",
  auth: "session",
  body: z.strictObject(endpointRef),
  response: webhookDeliverySchema,
  errors: [...SCOPE_ERRORS, "WEBHOOK_ENDPOINT_NOT_FOUND"],
  summary: "Queues a `webhook.test` event to one endpoint and answers its delivery.",
  tags: ["webhooks"],
});

export const replayWebhookDeliveriesContract = defineContract({
  name: "replayWebhookDeliveries",
  method: "POST",
  path: "/webhooks/replay",
  auth: "session",
  // Exactly one of deliveryId and from: checked by the handler after the caller's scope (a call
  // without credentials is answered 401 before its body is judged).
  body: z.strictObject({
    ...endpointRef,
    deliveryId: z.string().min(1).max(200).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  }),
  response: z.strictObject({ replayed: z.number().int() }),
  errors: [...SCOPE_ERRORS, "WEBHOOK_ENDPOINT_NOT_FOUND", "WEBHOOK_DELIVERY_NOT_FOUND", "VALIDATION_ERROR"],
  summary:
    "Sends one delivery, or the endpoint's deliveries created in a time range, again with the same webhook-id.",
  tags: ["webhooks"],
});

export const listWebhookDeliveriesContract = defineContract({
  name: "listWebhookDeliveries",
  method: "GET",
  path: "/webhooks/deliveries",
  auth: "session",
  query: z.strictObject({ ...endpointRef, limit: pageLimit.optional() }),
  response: z.array(webhookDeliverySchema),
  errors: [...SCOPE_ERRORS, "WEBHOOK_ENDPOINT_NOT_FOUND"],
  summary: "A webhook endpoint's deliveries, newest first, at most 100.",
  tags: ["webhooks"],
});
