import type { OrganizationDomain } from "../../contracts/sso-domains.ts";
import type { OrganizationDomainDoc } from "../../db/documents.ts";
import { challengeFilePath, challengeHostname, challengeRecordValue } from "./rules.ts";

/** The API's view of a claim; the proof to publish while it is pending. */
export function toOrganizationDomain(doc: OrganizationDomainDoc): OrganizationDomain {
  return {
    id: doc._id.toHexString(),
    organizationId: doc.organizationId.toHexString(),
    domain: doc.domain,
    status: doc.status,
    method: doc.method,
    settings: { ...doc.settings },
    createdAt: doc.createdAt,
    verifiedAt: doc.verifiedAt,
    expiresAt: doc.expiresAt,
    proof:
      doc.status === "pending"
        ? {
            txtName: challengeHostname(doc.domain),
            txtValue: challengeRecordValue(doc.token),
            fileURL: `https://${doc.domain}${challengeFilePath(doc.token)}`,
            fileBody: doc.token,
          }
        : null,
  };
}
