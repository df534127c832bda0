import { z } from "zod";

/**
 * SCIM connections declared in the options (infrastructure as code, as Better Auth's scim plugin
 * declares them): each gives an organization, by slug, a bearer token from the environment. They work
 * beside the tokens owners make with /scim/generate-token (docs/security.md "SCIM").
 */
const declaredConnectionSchema = z.strictObject({
  /** Names the connection in the audit trail (`scim:<id>`). */
  id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "1 to 64 letters, digits, '.', '_' or '-'"),
  /** The organization's slug. */
  organization: z.string().min(1).max(128),
  /** At least 32 characters, no whitespace: read it from the environment, never commit it. */
  token: z.string().regex(/^[\x21-\x7e]{32,256}$/, "32 to 256 printable characters without spaces"),
});

export type DeclaredScimConnection = z.output<typeof declaredConnectionSchema>;

export const scimOptionsSchema = z
  .object({
    /** @default [] */
    connections: z
      .array(declaredConnectionSchema)
      .default([])
      .refine((list) => new Set(list.map((c) => c.id)).size === list.length, "connection ids must be unique")
      .refine(
        (list) => new Set(list.map((c) => c.token)).size === list.length,
        "connection tokens must be unique",
      ),
  })
  .prefault({});
