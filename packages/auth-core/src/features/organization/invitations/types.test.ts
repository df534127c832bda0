import { describe, expect, it } from "vitest";
import type { InvitationDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import { AWKWARD_TEXTS as AWKWARD } from "../../../http/json-text.test.cases.ts";
import { invitationJson, toInvitation } from "./types.ts";

describe("an invitation's JSON text is the one JSON.stringify writes for its API shape", () => {
  const base: InvitationDoc = {
    _id: new ObjectId(),
    organizationId: new ObjectId(),
    email: "ada@example.com",
    role: "member",
    status: "pending",
    teamId: null,
    inviterId: new ObjectId(),
    expiresAt: new Date("2026-03-04T05:06:07.089Z"),
    createdAt: new Date("2026-03-02T00:00:00.000Z"),
    slot: "pending:ada@example.com",
  };
  const cases: Array<[string, InvitationDoc]> = [
    ["plain", base],
    [
      "with teams and several roles",
      { ...base, teamId: `${new ObjectId()},${new ObjectId()}`, role: "admin,member" },
    ],
    ["accepted", { ...base, status: "accepted" }],
    ["invalid dates", { ...base, expiresAt: new Date(Number.NaN), createdAt: new Date(Number.NaN) }],
    ...AWKWARD.map((text): [string, InvitationDoc] => [
      `text ${JSON.stringify(text)}`,
      { ...base, email: text, role: text, teamId: text },
    ]),
  ];
  it.each(cases)("%s", (_name, doc) => {
    expect(invitationJson(doc)).toBe(JSON.stringify(toInvitation(doc)));
  });
});
