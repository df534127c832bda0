/**
 * The face of webhooks: what create-auth.ts uses (endpoints: endpoints/, registered by
 * features/registry.ts; the CLI goes through them as the operator).
 */
export { startWebhookWorker } from "./start.ts";
export { deleteExpiredDeliveries } from "./store.ts";
export type { WebhookWorker } from "./worker.ts";
