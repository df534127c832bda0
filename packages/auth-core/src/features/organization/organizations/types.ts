import { type Organization, organizationModel } from "../../../contracts/organization-models.ts";
import type { OrganizationDoc } from "../../../db/documents.ts";
import { toModelValue } from "../../../db/model.ts";

export type { Organization } from "../../../contracts/organization-models.ts";

/** The API value of a stored organization (contracts/organization-models.ts organizationModel). */
export function toOrganization(doc: OrganizationDoc): Organization {
  return toModelValue(organizationModel, doc);
}
