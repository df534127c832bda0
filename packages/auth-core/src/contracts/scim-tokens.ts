import { z } from "zod";
import { defineContract } from "./contract.ts";
import { idField } from "./organization-fields.ts";

/**
 * An organization's SCIM connections (docs/security.md "SCIM"): one bearer token per connection,
 * shown once, stored as its SHA-256. Paths and fields as Better Auth's `@better-auth/scim`
 * (/scim/generate-token → `scimToken`, /scim/list-provider-connections, /scim/delete-provider-connection).
 */

export interface ScimConnection {
  id: string;
  organizationId: string;
  providerId: string;
  createdAt: Date;
}

export interface GeneratedScimToken extends ScimConnection {
  /** `scim_` and 43 random characters; shown in this answer only. */
  scimToken: string;
}

const connectionShape = {
  id: z.string(),
  organizationId: z.string(),
  providerId: z.string(),
  createdAt: z.date(),
};

export const scimConnectionSchema: z.ZodType<ScimConnection> = z.strictObject(connectionShape);

/** A short name: letters, digits, `.`, `_`, `-` (Better Auth forbids `:`; we take a safe alphabet). */
export const scimProviderIdField = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, "1 to 64 letters, digits, '.', '_' or '-'");

const MEMBER_ERRORS = [
  "NO_ACTIVE_ORGANIZATION",
  "NOT_A_MEMBER_OF_ORGANIZATION",
  "ORGANIZATION_NOT_FOUND",
  "ORGANIZATION_UPDATE_NOT_ALLOWED",
] as const;

const WHO = "Owners and admins (who may update the organization) of the named or active organization.";

export const generateScimTokenContract = defineContract({
  name: "generateScimToken",
  method: "POST",
  path: "/scim/generate-token",
  auth: "fresh-session",
  body: z.strictObject({
    organizationId: idField.optional(),
    providerId: scimProviderIdField.default("default"),
  }),
  response: z.strictObject({ ...connectionShape, scimToken: z.string() }),
  errors: [...MEMBER_ERRORS],
  summary: "Makes the bearer token of an organization's SCIM connection; the answer shows it once.",
  notes: `${WHO} Generating again for the same providerId replaces the token (rotation): the old one stops at once. The token reaches this organization's SCIM resources only.`,
  tags: ["organization", "scim"],
  client: "scim.generateToken",
});

export const listScimConnectionsContract = defineContract({
  name: "listScimProviderConnections",
  method: "GET",
  path: "/scim/list-provider-connections",
  auth: "session",
  query: z.strictObject({ organizationId: idField.optional() }),
  response: z.strictObject({ providers: z.array(scimConnectionSchema) }),
  errors: [...MEMBER_ERRORS],
  summary: "The organization's SCIM connections, oldest first (never their tokens).",
  notes: WHO,
  tags: ["organization", "scim"],
  client: "scim.listProviderConnections",
});

export const deleteScimConnectionContract = defineContract({
  name: "deleteScimProviderConnection",
  method: "POST",
  path: "/scim/delete-provider-connection",
  auth: "session",
  body: z.strictObject({ organizationId: idField.optional(), providerId: scimProviderIdField }),
  response: z.strictObject({ success: z.literal(true) }),
  errors: [...MEMBER_ERRORS, "SCIM_CONNECTION_NOT_FOUND"],
  summary: "Revokes a SCIM connection's token: the directory's next request is refused.",
  notes: WHO,
  tags: ["organization", "scim"],
  client: "scim.deleteProviderConnection",
});
