/**
 * The face of webhooks: what create-auth.ts and the operator's CLI may use (endpoints: endpoints/,
 * registered by features/registry.ts).
 */
export {
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listAllEndpoints,
  queueTestDelivery,
  replayDeliveries,
} from "./service.ts";
export { startWebhookWorker } from "./start.ts";
export { toWebhookDelivery, toWebhookEndpoint } from "./types.ts";
export type { WebhookWorker } from "./worker.ts";
