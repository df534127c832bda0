import {
  type Member,
  type MemberUser,
  type MemberWithUser,
  memberModel,
  memberUserModel,
} from "../../../contracts/organization-models.ts";
import { type BsonJsonWriter, writeJsonFields } from "../../../db/bson-json.ts";
import type { MemberDoc, UserDoc } from "../../../db/documents.ts";
import { modelJsonShape, toModelValue, writeModelJson } from "../../../db/model.ts";
import { BsonFields, type RawPage } from "../../../db/raw-page.ts";

export type { Member, MemberUser, MemberWithUser } from "../../../contracts/organization-models.ts";

export type MemberUserDoc = Pick<UserDoc, "_id" | "name" | "email" | "image">;

/** A member row with its user's public fields (service.ts pairWithUsers). */
export interface MemberAndUser {
  member: MemberDoc;
  user: MemberUserDoc;
}

/** The API value of a stored member (contracts/organization-models.ts memberModel). */
export function toMember(doc: MemberDoc): Member {
  return toModelValue(memberModel, doc);
}

/** The API value of a member's user (contracts/organization-models.ts memberUserModel). */
export function toMemberUser(doc: MemberUserDoc): MemberUser {
  return toModelValue(memberUserModel, doc);
}

export function toMemberWithUser({ member, user }: MemberAndUser): MemberWithUser {
  return { ...toMember(member), user: toMemberUser(user) };
}

/**
 * `JSON.stringify(toMemberWithUser(pair))`, written directly: member lists are the largest answers
 * (get-full-organization, list-members), and stringifying their objects cost more than building
 * them (each Date goes through toJSON on the slow path); types.test.ts compares the two byte for byte.
 */
export function memberWithUserJson({ member, user }: MemberAndUser): string {
  return `${writeModelJson(memberModel, member).slice(0, -1)},"user":${writeModelJson(memberUserModel, user)}}`;
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

const MEMBER_JSON = modelJsonShape(memberModel);
const USER_JSON = modelJsonShape(memberUserModel);

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
