import { describe, expect, it } from "vitest";
import type { MemberDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import { AWKWARD_TEXTS as AWKWARD } from "../../../http/json-text.test.cases.ts";
import { type MemberUserDoc, memberWithUserJson, toMemberWithUser } from "./types.ts";

describe("a member's JSON text is the one JSON.stringify writes for its API shape", () => {
  const base: MemberDoc = {
    _id: new ObjectId(),
    organizationId: new ObjectId(),
    userId: new ObjectId(),
    role: "member",
    createdAt: new Date("2026-03-04T05:06:07.089Z"),
    teamId: null,
    seat: 3,
  };
  const user: MemberUserDoc = { _id: base.userId, name: "Ada", email: "ada@example.com", image: null };
  const cases: Array<[string, MemberDoc, MemberUserDoc]> = [
    ["plain", base, user],
    ["in a team, with several roles", { ...base, teamId: new ObjectId(), role: "admin,member" }, user],
    ["with an image", base, { ...user, image: 'https://example.com/a.png?x="1"' }],
    [
      "without an image field",
      base,
      { _id: user._id, name: "Ada", email: "ada@example.com" } as MemberUserDoc,
    ],
    ["an invalid date", { ...base, createdAt: new Date(Number.NaN) }, user],
    ...AWKWARD.map((text): [string, MemberDoc, MemberUserDoc] => [
      `text ${JSON.stringify(text)}`,
      { ...base, role: text },
      { ...user, name: text, email: text, image: text },
    ]),
  ];
  it.each(cases)("%s", (_name, member, memberUser) => {
    const pair = { member, user: memberUser };
    expect(memberWithUserJson(pair)).toBe(JSON.stringify(toMemberWithUser(pair)));
  });
});
