import type { Member, MemberUser, MemberWithUser } from "../../../contracts/organization-models.ts";
import { type BsonJsonWriter, jsonShape, writeJsonFields } from "../../../db/bson-json.ts";
import type { MemberDoc, UserDoc } from "../../../db/documents.ts";
import { BsonFields, type RawPage, TYPE_DATE, TYPE_OBJECT_ID, TYPE_STRING } from "../../../db/raw-page.ts";
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

/**
 * Members and their users as read (raw-page.ts): `pairs` holds, for each listed member in page
 * order, the index of its document in `members` and of its user's in `users` (service.ts
 * pairMembersRaw). Written straight from the bytes by `writeMembersWithUsersJson`.
 */
export interface RawMemberPairs {
  members: RawPage<MemberDoc>;
  users: RawPage<MemberUserDoc>;
  /** Member index, user index; member index, user index; … */
  pairs: readonly number[];
}

/** The pairs decoded (the server API's objects). */
export function toMembersWithUsers({ members, users, pairs }: RawMemberPairs): MemberWithUser[] {
  const listed: MemberWithUser[] = [];
  for (let index = 0; index < pairs.length; index += 2) {
    const member = members.decode(pairs[index] as number);
    listed.push(toMemberWithUser({ member, user: users.decode(pairs[index + 1] as number) }));
  }
  return listed;
}

/** MemberDoc's fields in toMember's order (teamId null or absent written as null). */
const MEMBER_JSON = jsonShape([
  { field: "_id", key: "id", type: TYPE_OBJECT_ID },
  { field: "organizationId", type: TYPE_OBJECT_ID },
  { field: "userId", type: TYPE_OBJECT_ID },
  { field: "role", type: TYPE_STRING },
  { field: "createdAt", type: TYPE_DATE },
  { field: "teamId", type: TYPE_OBJECT_ID, orNull: "null or absent" },
]);
/** The member's user as toMemberUser writes it (image null or absent written as null). */
const USER_JSON = jsonShape([
  { field: "_id", key: "id", type: TYPE_OBJECT_ID },
  { field: "name", type: TYPE_STRING },
  { field: "email", type: TYPE_STRING },
  { field: "image", type: TYPE_STRING, orNull: "null or absent" },
]);

/**
 * The JSON array `jsonArray(pairs, memberWithUserJson)` would write for the decoded pairs, copied
 * from the BSON bytes. A document whose fields are not of the types MemberDoc/UserDoc declare (or
 * whose text is not valid UTF-8) is decoded and written by memberWithUserJson instead, so it
 * answers (or fails) exactly as before; types.test.ts compares the two on stored documents.
 */
export function writeMembersWithUsersJson(
  out: BsonJsonWriter,
  { members, users, pairs }: RawMemberPairs,
): void {
  const member = new BsonFields(MEMBER_JSON.names);
  const user = new BsonFields(USER_JSON.names);
  const memberBytes = members.bytes;
  const userBytes = users.bytes;
  out.text("[");
  for (let index = 0; index < pairs.length; index += 2) {
    if (index > 0) out.text(",");
    const memberIndex = pairs[index] as number;
    const userIndex = pairs[index + 1] as number;
    member.read(memberBytes, members.starts[memberIndex] as number);
    user.read(userBytes, users.starts[userIndex] as number);
    const mark = out.length;
    if (!writeMemberWithUser(out, member, memberBytes, user, userBytes)) {
      out.truncate(mark);
      out.text(memberWithUserJson({ member: members.decode(memberIndex), user: users.decode(userIndex) }));
    }
  }
  out.text("]");
}

/** False (part written) when a field is not of its declared type: the caller writes the decoded pair instead. */
function writeMemberWithUser(
  out: BsonJsonWriter,
  member: BsonFields,
  memberBytes: Uint8Array,
  user: BsonFields,
  userBytes: Uint8Array,
): boolean {
  out.text("{");
  if (!writeJsonFields(out, member, memberBytes, MEMBER_JSON)) return false;
  out.text(',"user":{');
  if (!writeJsonFields(out, user, userBytes, USER_JSON)) return false;
  out.text("}}");
  return true;
}
