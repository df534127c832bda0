import { z } from "zod";
import { eventTypeField } from "./events.ts";

/**
 * The webhook shapes the API answers with (features/webhooks). Never a stored secret: the `whsec_…`
 * secret is answered once, by create and rotate-secret (CreatedWebhookEndpoint).
 */

export interface WebhookEndpoint {
  id: string;
  /** Null: app-wide (every organization's events), managed by the app's admins. */
  organizationId: string | null;
  url: string;
  /** Empty: every event type. */
  eventTypes: string[];
  description: string;
  enabled: boolean;
  /** Why the server disabled it (five days of failures); null when enabled or disabled by hand. */
  disabledReason: string | null;
  failingSince: Date | null;
  /** The end of a rotation's overlap, while the previous secret still signs; null otherwise. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CreatedWebhookEndpoint {
  endpoint: WebhookEndpoint;
  /** `whsec_…`: shown this once. */
  secret: string;
}

export interface WebhookAttempt {
  at: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

export interface WebhookDelivery {
  /** The `webhook-id` every attempt and replay sends. */
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: "pending" | "failed" | "delivered" | "dead";
  attempts: WebhookAttempt[];
  nextAttemptAt: Date | null;
  createdAt: Date;
}

export const webhookEndpointSchema: z.ZodType<WebhookEndpoint> = z.strictObject({
  id: z.string(),
  organizationId: z.string().nullable(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  description: z.string(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: z.date().nullable(),
  previousSecretExpiresAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export const createdWebhookEndpointSchema: z.ZodType<CreatedWebhookEndpoint> = z.strictObject({
  endpoint: webhookEndpointSchema,
  secret: z.string(),
});

export const webhookDeliverySchema: z.ZodType<WebhookDelivery> = z.strictObject({
  id: z.string(),
  endpointId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  status: z.enum(["pending", "failed", "delivered", "dead"]),
  attempts: z.array(
    z.strictObject({
      at: z.date(),
      durationMs: z.number(),
      statusCode: z.number().nullable(),
      error: z.string().nullable(),
    }),
  ),
  nextAttemptAt: z.date().nullable(),
  createdAt: z.date(),
});

/** An organization's id when the call is about that organization's endpoints; absent: app-wide. */
export const webhookScopeField = z.string().max(64).optional();
export const webhookEndpointIdField = z.string().min(1).max(64);
export const webhookUrlField = z.string().min(1).max(2048);
export const webhookEventTypesField = z.array(eventTypeField).max(100);
export const webhookDescriptionField = z.string().max(500);
