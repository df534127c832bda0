import { z } from "zod";

/** What a domain proof asks of DNS: node:dns/promises `Resolver`'s resolveTxt (each record's strings). */
export interface TxtResolver {
  resolveTxt(hostname: string): Promise<string[][]>;
}

/** The fetch a domain's HTTPS proof goes through (the global fetch's shape). */
export type ProofFetch = (url: string, init: RequestInit) => Promise<Response>;

const resolverSchema = z.custom<TxtResolver>(
  (value) => typeof (value as TxtResolver | null)?.resolveTxt === "function",
  "expected a resolver with resolveTxt (a node:dns/promises Resolver)",
);

const fetchSchema = z.custom<ProofFetch>((value) => typeof value === "function", "expected a fetch function");

/**
 * Single sign-on per organization (issue 31). Verified domains (features/sso-domains,
 * docs/security.md "Verified domains"): an organization proves it holds a domain before any
 * address of it is routed to, joined to or locked into the organization.
 */
export const ssoOptionsSchema = z
  .object({
    /**
     * Treats every domain an organization declares as proven, without a DNS or HTTPS proof. For
     * development and tests only: anyone could then claim anyone's domain. createAuth logs a warning
     * when it is on.
     * @default false
     */
    trustDeclaredDomains: z.boolean().default(false),
    /**
     * The app's page an SSO setup link opens (`<origin of baseURL><setupLinkPath>/<token>`,
     * features/sso/setup-link.ts); the page posts the token to /sso/open-setup-link.
     * @default "/sso-setup"
     */
    setupLinkPath: z
      .string()
      .regex(/^\/[A-Za-z0-9._~/-]*$/, "a path starting with '/'")
      .default("/sso-setup"),
    domainVerification: z
      .object({
        /**
         * Where TXT records are looked up. @default a new node:dns/promises Resolver (the system's
         * servers)
         */
        resolver: resolverSchema.optional(),
        /**
         * The fetch behind the HTTPS proof; it is always asked for `https://<domain>/.well-known/…`,
         * with redirects refused, a timeout and a body cap around it (tests route it to a local server).
         * @default globalThis.fetch
         */
        fetch: fetchSchema.optional(),
        /**
         * How long a claim may stay unproven before it lapses (and stops counting as a claim).
         * @default 604800 (7 days)
         */
        claimTtlSeconds: z
          .number()
          .int()
          .min(60)
          .max(90 * 86400)
          .default(7 * 86400),
        /** Bound on one DNS lookup or HTTPS fetch. @default 5000 */
        timeoutMs: z.number().int().positive().max(60_000).default(5000),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .prefault({});
