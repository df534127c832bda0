import type { Member, MemberUser, MemberWithUser } from "../../../contracts/organization-models.ts";
import type { MemberDoc, UserDoc } from "../../../db/documents.ts";
import { jsonDate } from "../../../http/json-text.ts";

export type { Member, MemberUser, MemberWithUser } from "../../../contracts/organization-models.ts";

export type MemberUserDoc = Pick<UserDoc, "_id" | "name" | "email" | "image">;

/** A member row with its user's public fields (service.ts pairWithUsers). */
export interface MemberAndUser {
  member: MemberDoc;
  user: MemberUserDoc;
}

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

export function toMemberUser(doc: MemberUserDoc): MemberUser {
  return { id: doc._id.toHexString(), name: doc.name, email: doc.email, image: doc.image ?? null };
}

export function toMemberWithUser({ member, user }: MemberAndUser): MemberWithUser {
  return { ...toMember(member), user: toMemberUser(user) };
}

/**
 * `JSON.stringify(toMemberWithUser(pair))`, written directly: member lists are the largest answers
 * (get-full-organization, list-members), and stringifying their objects cost more than building
 * them (each Date goes through toJSON on the slow path). Field order and escaping must stay those
 * of toMember/toMemberUser; types.test.ts compares the two byte for byte.
 */
export function memberWithUserJson({ member, user }: MemberAndUser): string {
  const teamId = member.teamId ? `"${member.teamId.toHexString()}"` : "null";
  const image = user.image == null ? "null" : JSON.stringify(user.image);
  return (
    `{"id":"${member._id.toHexString()}","organizationId":"${member.organizationId.toHexString()}",` +
    `"userId":"${member.userId.toHexString()}","role":${JSON.stringify(member.role)},` +
    `"createdAt":${jsonDate(member.createdAt)},"teamId":${teamId},"user":{"id":"${user._id.toHexString()}",` +
    `"name":${JSON.stringify(user.name)},"email":${JSON.stringify(user.email)},"image":${image}}}`
  );
}
