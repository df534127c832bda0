import type { Invitation } from "../../../contracts/organization-models.ts";
import type { InvitationDoc } from "../../../db/documents.ts";

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
