import type { Organization } from "../../../contracts/organization-models.ts";
import type { OrganizationDoc } from "../../../db/documents.ts";

export type { Organization } from "../../../contracts/organization-models.ts";

/** Metadata is stored as JSON text; text that is not a JSON object reads as null. */
function parseMetadata(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function toOrganization(doc: OrganizationDoc): Organization {
  return {
    id: doc._id.toHexString(),
    name: doc.name,
    slug: doc.slug,
    logo: doc.logo,
    metadata: parseMetadata(doc.metadata),
    createdAt: doc.createdAt,
  };
}
