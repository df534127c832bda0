import { z } from "zod";
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from "../contracts/events.ts";
import type { JsonSchema } from "./json-schema.ts";

/** The tag of the events' webhook operations (and of the event listings, contracts/events-listing.ts). */
export const EVENTS_TAG = "events";

/**
 * An event as a receiver gets it (contracts/events.ts TesseraEvent), with `type` fixed and `data`
 * the catalogue's schema of that type.
 */
function deliveredEventSchema(type: EventType) {
  return z.strictObject({
    id: z.string().describe("evt_ + a time-ordered id; the same for every delivery of the event."),
    type: z.literal(type),
    createdAt: z.string().describe("When the change happened (ISO 8601)."),
    organizationId: z.string().nullable(),
    userId: z.string().nullable(),
    actor: z.string().nullable().optional(),
    data: EVENT_CATALOGUE[type].data,
  });
}

/**
 * The document's `webhooks` (OpenAPI 3.1): one POST per event type of the catalogue, its body the
 * delivered event. `schemaOf` turns a schema into JSON Schema, moving shared definitions into the
 * document's components (openapi/document.ts).
 */
export function webhookOperations(
  schemaOf: (name: string, schema: z.ZodType) => JsonSchema,
): Record<string, { post: Record<string, unknown> }> {
  const operations: Record<string, { post: Record<string, unknown> }> = {};
  for (const type of EVENT_TYPES) {
    const name = `event_${type.replace(/\W/g, "_")}`;
    operations[type] = {
      post: {
        operationId: name,
        summary: EVENT_CATALOGUE[type].summary,
        tags: [EVENTS_TAG],
        security: [],
        requestBody: {
          required: true,
          content: { "application/json": { schema: schemaOf(name, deliveredEventSchema(type)) } },
        },
        responses: {
          "200": { description: "Any 2xx answer acknowledges the delivery." },
          "400": { description: "Any other answer is retried on the schedule (Standard Webhooks)." },
        },
      },
    };
  }
  return operations;
}
