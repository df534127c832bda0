import type { Member, MemberUser, MemberWithUser } from "../../../contracts/organization-models.ts";
import { type BsonJsonWriter, type JsonField, writeJsonFields } from "../../../db/bson-json.ts";
import type { MemberDoc, UserDoc } from "../../../db/documents.ts";
import {
  BsonFields,
  bsonFieldNames,
  type RawPage,
  TYPE_DATE,
  TYPE_OBJECT_ID,
  TYPE_STRING,
} from "../../../db/raw-page.ts";
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

const MEMBER_FIELDS = bsonFieldNames(["_id", "organizationId", "userId", "role", "createdAt", "teamId"]);
const USER_FIELDS = bsonFieldNames(["_id", "name", "email", "image"]);
const [M_ID, M_ORGANIZATION, M_USER, M_ROLE, M_CREATED, M_TEAM] = [0, 1, 2, 3, 4, 5] as const;
const [U_ID, U_NAME, U_EMAIL, U_IMAGE] = [0, 1, 2, 3] as const;

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
  const member = new BsonFields(MEMBER_FIELDS);
  const user = new BsonFields(USER_FIELDS);
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

/** MemberDoc's fields in toMember's order (teamId null or absent written as null). */
const MEMBER_JSON: readonly JsonField[] = [
  { key: "id", slot: M_ID, type: TYPE_OBJECT_ID },
  { key: "organizationId", slot: M_ORGANIZATION, type: TYPE_OBJECT_ID },
  { key: "userId", slot: M_USER, type: TYPE_OBJECT_ID },
  { key: "role", slot: M_ROLE, type: TYPE_STRING },
  { key: "createdAt", slot: M_CREATED, type: TYPE_DATE },
  { key: "teamId", slot: M_TEAM, type: TYPE_OBJECT_ID, orNull: "null or absent" },
];
/** The member's user as toMemberUser writes it (image null or absent written as null). */
const USER_JSON: readonly JsonField[] = [
  { key: "id", slot: U_ID, type: TYPE_OBJECT_ID },
  { key: "name", slot: U_NAME, type: TYPE_STRING },
  { key: "email", slot: U_EMAIL, type: TYPE_STRING },
  { key: "image", slot: U_IMAGE, type: TYPE_STRING, orNull: "null or absent" },
];

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
