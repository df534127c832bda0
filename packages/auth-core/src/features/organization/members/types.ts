import type { Member, MemberUser } from "../../../contracts/organization-models.ts";
import type { MemberDoc, UserDoc } from "../../../db/documents.ts";

export type { Member, MemberUser, MemberWithUser } from "../../../contracts/organization-models.ts";

export function toMember(doc: MemberDoc): Member {
  return {
    id: doc._id.toHexString(),
    organizationId: doc.organizationId.toHexString(),
    userId: doc.userId.toHexString(),
    role: doc.role,
    createdAt: doc.createdAt,
    teamId: doc.teamId ? doc.teamId.toHexString() : null,
  };
}

export function toMemberUser(doc: Pick<UserDoc, "_id" | "name" | "email" | "image">): MemberUser {
  return { id: doc._id.toHexString(), name: doc.name, email: doc.email, image: doc.image ?? null };
}
