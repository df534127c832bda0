import type { Invitation } from "../../../contracts/organization-models.ts";
import type { InvitationDoc } from "../../../db/documents.ts";
import { jsonDate } from "../../../http/json-text.ts";

export type { Invitation } from "../../../contracts/organization-models.ts";

export function toInvitation(doc: InvitationDoc): Invitation {
  return {
    id: doc._id.toHexString(),
    organizationId: doc.organizationId.toHexString(),
    email: doc.email,
    role: doc.role,
    status: doc.status,
    teamId: doc.teamId,
    inviterId: doc.inviterId.toHexString(),
    expiresAt: doc.expiresAt,
    createdAt: doc.createdAt,
  };
}

/**
 * `JSON.stringify(toInvitation(doc))`, written directly for get-full-organization's list (members/types.ts
 * memberWithUserJson says why). Field order and escaping must stay toInvitation's; types.test.ts
 * compares the two byte for byte.
 */
export function invitationJson(doc: InvitationDoc): string {
  return (
    `{"id":"${doc._id.toHexString()}","organizationId":"${doc.organizationId.toHexString()}",` +
    `"email":${JSON.stringify(doc.email)},"role":${JSON.stringify(doc.role)},` +
    `"status":${JSON.stringify(doc.status)},"teamId":${JSON.stringify(doc.teamId)},` +
    `"inviterId":"${doc.inviterId.toHexString()}","expiresAt":${jsonDate(doc.expiresAt)},` +
    `"createdAt":${jsonDate(doc.createdAt)}}`
  );
}
