import { z } from "zod";

/**
 * The durable mail outbox (features/mail-outbox, docs/architecture.md "Mail"). Every process that
 * runs the worker delivers queued mails; several on one database share them through leases.
 */
export const mailQueueOptionsSchema = z
  .object({
    /** Run the delivery worker in this process (the CLI turns it off). @default true */
    worker: z.boolean().default(true),
    /** How often, in milliseconds, the worker looks for due mails. @default 5000 */
    pollInterval: z.number().int().min(10).max(300_000).default(5000),
    /** Mails one process sends at the same time. @default 4 */
    concurrency: z.number().int().min(1).max(64).default(4),
    /**
     * How long, in seconds, an instance holds a mail it sends; a killed instance's mails are taken
     * over when it ends. Longer than the SMTP timeout (10 s). @default 60
     */
    leaseSeconds: z.number().int().min(15).max(3600).default(60),
    /** Days a mail's state row (no body) is kept for the lists before auth.cleanup() removes it. @default 14 */
    keepDays: z.number().int().min(1).max(365).default(14),
  })
  .strict()
  .prefault({});
