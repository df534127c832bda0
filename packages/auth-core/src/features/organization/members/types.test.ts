import { BSON } from "mongodb";
import { describe, expect, it } from "vitest";
import { BsonJsonWriter } from "../../../db/bson-json.ts";
import type { MemberDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import { rawPageOf } from "../../../db/raw-page.ts";
import { AWKWARD_TEXTS as AWKWARD } from "../../../http/json-text.test.cases.ts";
import { jsonArray } from "../../../http/json-text.ts";
import {
  type MemberUserDoc,
  memberWithUserJson,
  toMembersWithUsers,
  toMemberWithUser,
  writeMembersWithUsersJson,
} from "./types.ts";

/** One stored member and its user; each case changes what it tests. */
const member: MemberDoc = {
  _id: new ObjectId(),
  organizationId: new ObjectId(),
  userId: new ObjectId(),
  role: "member",
  createdAt: new Date("2026-03-04T05:06:07.089Z"),
  teamId: null,
  seat: 3,
};
const user: MemberUserDoc = { _id: member.userId, name: "Ada", email: "ada@example.com", image: null };

describe("a member's JSON text is the one JSON.stringify writes for its API shape", () => {
  const cases: Array<[string, MemberDoc, MemberUserDoc]> = [
    ["plain", member, user],
    ["in a team, with several roles", { ...member, teamId: new ObjectId(), role: "admin,member" }, user],
    ["with an image", member, { ...user, image: 'https://example.com/a.png?x="1"' }],
    [
      "without an image field",
      member,
      { _id: user._id, name: "Ada", email: "ada@example.com" } as MemberUserDoc,
    ],
    ["an invalid date", { ...member, createdAt: new Date(Number.NaN) }, user],
    ...AWKWARD.map((text): [string, MemberDoc, MemberUserDoc] => [
      `text ${JSON.stringify(text)}`,
      { ...member, role: text },
      { ...user, name: text, email: text, image: text },
    ]),
  ];
  it.each(cases)("%s", (_name, member, memberUser) => {
    const pair = { member, user: memberUser };
    expect(memberWithUserJson(pair)).toBe(JSON.stringify(toMemberWithUser(pair)));
  });
});

describe("members written from their BSON bytes read as their decoded JSON text", () => {
  const cases: Array<[string, object, object]> = [
    ["plain", member, user],
    ["in a team", { ...member, teamId: new ObjectId(), role: "admin,member" }, user],
    ["with an image", member, { ...user, image: 'https://example.com/a.png?x="1"' }],
    ["without an image or team field", { ...member, teamId: undefined }, { ...user, image: undefined }],
    ["an image of another type", member, { ...user, image: 5 }],
    ["a role of another type (decoded instead)", { ...member, role: ["owner"] }, user],
    ["a date far out of range", { ...member, createdAt: new Date(-8.64e15) }, user],
    ...AWKWARD.map((text): [string, object, object] => [
      `text ${JSON.stringify(text)}`,
      { ...member, role: text },
      { ...user, name: text, email: text, image: text },
    ]),
  ];
  it.each(cases)("%s", (_name, memberDoc, userDoc) => {
    const batch = (doc: object) =>
      BSON.serialize({ firstBatch: [doc, doc], id: 0 }, { ignoreUndefined: true });
    const pairs = {
      members: rawPageOf<MemberDoc>(batch(memberDoc)),
      users: rawPageOf<MemberUserDoc>(batch(userDoc)),
      pairs: [0, 1, 1, 0],
    };
    const out = new BsonJsonWriter(64);
    writeMembersWithUsersJson(out, pairs);
    const decoded = [0, 1].map(() => ({ member: pairs.members.decode(0), user: pairs.users.decode(0) }));
    expect(out.toString()).toBe(jsonArray(decoded, memberWithUserJson));
    expect(out.toString()).toBe(JSON.stringify(toMembersWithUsers(pairs)));
  });

  it("a createdAt that is not a date fails as the decoded member does", () => {
    const page = rawPageOf<MemberDoc>(
      BSON.serialize({ firstBatch: [{ ...member, createdAt: "yesterday" }] }),
    );
    const users = rawPageOf<MemberUserDoc>(BSON.serialize({ firstBatch: [user] }));
    expect(() =>
      writeMembersWithUsersJson(new BsonJsonWriter(64), { members: page, users, pairs: [0, 0] }),
    ).toThrow(TypeError);
  });
});
