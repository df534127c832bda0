import { z } from "zod";
import { providerIdField } from "../schemas.ts";

/** SPEC §7 body of /get-access-token and /refresh-token. */
export const tokenRequestBody = z.strictObject({
  providerId: providerIdField,
  accountId: z.string().min(1).max(256).optional(),
  /** Server calls only (auth.api); ignored over HTTP in favour of the session. */
  userId: z.string().min(1).max(64).optional(),
});
