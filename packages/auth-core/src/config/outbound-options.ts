import { z } from "zod";
import type { ResolveHost } from "../http/outbound.ts";

/**
 * `outbound`: the guard on server-side fetches of customer-supplied URLs (http/outbound.ts,
 * docs/security.md "Outbound requests (SSRF)"): SSO discovery documents and signing keys, webhook
 * receivers, domain proofs.
 */
export const outboundOptionsSchema = z
  .object({
    /**
     * Lets those fetches reach private, loopback and link-local addresses, over plain http too: an
     * identity provider or receiver on localhost in development and tests. Never in production, where
     * a customer's URL could otherwise reach the server's own network. createAuth logs a warning when on.
     * @default false
     */
    allowPrivateAddresses: z.boolean().default(false),
    /** How host names are resolved (every address is checked). @default node:dns lookup, all addresses */
    resolveHost: z
      .custom<ResolveHost>((value) => typeof value === "function", "expected a function")
      .optional(),
  })
  .strict()
  .prefault({});
