import { BSON } from "mongodb";
import { describe, expect, it } from "vitest";
import { BsonJsonWriter } from "../../../db/bson-json.ts";
import type { InvitationDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import { rawPageOf } from "../../../db/raw-page.ts";
import { AWKWARD_TEXTS as AWKWARD } from "../../../http/json-text.test.cases.ts";
import { jsonArray } from "../../../http/json-text.ts";
import { invitationJson, toInvitation, writeInvitationsJson } from "./types.ts";

/** One stored invitation; each case changes what it tests. */
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

describe("an invitation's JSON text is the one JSON.stringify writes for its API shape", () => {
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

describe("invitations written from their BSON bytes read as their decoded JSON text", () => {
  const cases: Array<[string, object]> = [
    ["plain", base],
    [
      "with teams and several roles",
      { ...base, teamId: `${new ObjectId()},${new ObjectId()}`, role: "admin,member" },
    ],
    ["dates far out of range", { ...base, expiresAt: new Date(8.64e15), createdAt: new Date(-8.64e15) }],
    ["a teamId of another type (decoded instead)", { ...base, teamId: 7 }],
    ...AWKWARD.map((text): [string, object] => [
      `text ${JSON.stringify(text)}`,
      { ...base, email: text, role: text, status: text, teamId: text },
    ]),
  ];
  it.each(cases)("%s", (_name, doc) => {
    const page = rawPageOf<InvitationDoc>(BSON.serialize({ firstBatch: [doc, doc], id: 0 }));
    const out = new BsonJsonWriter(64);
    writeInvitationsJson(out, page);
    expect(out.toString()).toBe(jsonArray(page.decodeAll(), invitationJson));
    expect(out.toString()).toBe(JSON.stringify(page.decodeAll().map(toInvitation)));
  });
});
