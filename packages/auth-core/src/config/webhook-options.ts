import { z } from "zod";

/**
 * Webhooks (features/webhooks, docs/decisions/0020-webhooks.md). With `enabled`, createAuth starts the
 * delivery worker in this process and the webhook endpoints answer; several processes on one
 * database may all run it (each delivery is leased to one of them at a time).
 */
export const webhookOptionsSchema = z
  .object({
    /** Run the delivery worker and serve the webhook endpoints. @default false */
    enabled: z.boolean().default(false),
    /**
     * Run the delivery worker in this process. Off for processes that only administer (the CLI
     * turns it off); the servers deliver. @default true
     */
    worker: z.boolean().default(true),
    /** How often, in milliseconds, the worker looks for due deliveries without being woken. @default 1000 */
    pollInterval: z.number().int().min(10).max(60_000).default(1000),
    /** Deliveries one process attempts at the same time. @default 8 */
    concurrency: z.number().int().min(1).max(64).default(8),
    /** How long, in milliseconds, a receiver has to answer an attempt. @default 10000 */
    attemptTimeout: z.number().int().min(50).max(30_000).default(10_000),
    /**
     * How long, in seconds, an instance holds a delivery it attempts; a killed instance's deliveries
     * are taken over when it ends. Longer than the 10 s attempt timeout. @default 60
     */
    leaseSeconds: z.number().int().min(15).max(3600).default(60),
  })
  .strict()
  .prefault({});
