import { z } from "zod";

/** Events (features/events, docs/architecture.md "Events written with the change"). */
export const eventOptionsSchema = z
  .object({
    /** How many days events are kept; `auth.cleanup()` deletes older ones. @default 30 */
    retentionDays: z.number().int().min(1).max(3650).default(30),
  })
  .strict()
  .prefault({});
