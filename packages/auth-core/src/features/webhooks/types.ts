import type { WebhookDelivery, WebhookEndpoint } from "../../contracts/webhook-models.ts";
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from "../../db/documents.ts";

/** An endpoint as the API shows it: never a secret, stored or plain. */
export function toWebhookEndpoint(doc: WebhookEndpointDoc): WebhookEndpoint {
  const previous = doc.secrets.find((secret) => secret.expiresAt !== null);
  return {
    id: doc._id.toHexString(),
    organizationId: doc.organizationId?.toHexString() ?? null,
    url: doc.url,
    eventTypes: doc.eventTypes,
    description: doc.description,
    enabled: doc.enabled,
    disabledReason: doc.disabledReason,
    failingSince: doc.failingSince,
    previousSecretExpiresAt: previous?.expiresAt ?? null,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toWebhookDelivery(doc: WebhookDeliveryDoc): WebhookDelivery {
  return {
    id: doc._id,
    endpointId: doc.endpointId.toHexString(),
    eventId: doc.eventId,
    eventType: doc.eventType,
    status: doc.status,
    attempts: doc.attempts.map(({ at, durationMs, statusCode, error }) => ({
      at,
      durationMs,
      statusCode,
      error,
    })),
    nextAttemptAt: doc.nextAttemptAt,
    createdAt: doc.createdAt,
  };
}
