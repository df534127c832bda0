import type { Invitation } from "../../../contracts/organization-models.ts";
import { type BsonJsonWriter, type JsonField, writeJsonFields } from "../../../db/bson-json.ts";
import type { InvitationDoc } from "../../../db/documents.ts";
import {
  BsonFields,
  bsonFieldNames,
  type RawPage,
  TYPE_DATE,
  TYPE_OBJECT_ID,
  TYPE_STRING,
} from "../../../db/raw-page.ts";
import { jsonDate } from "../../../http/json-text.ts";

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

/**
 * `JSON.stringify(toInvitation(doc))`, written directly for get-full-organization's list (members/types.ts
 * memberWithUserJson says why). Field order and escaping must stay toInvitation's; types.test.ts
 * compares the two byte for byte.
 */
export function invitationJson(doc: InvitationDoc): string {
  return (
    `{"id":"${doc._id.toHexString()}","organizationId":"${doc.organizationId.toHexString()}",` +
    `"email":${JSON.stringify(doc.email)},"role":${JSON.stringify(doc.role)},` +
    `"status":${JSON.stringify(doc.status)},"teamId":${JSON.stringify(doc.teamId)},` +
    `"inviterId":"${doc.inviterId.toHexString()}","expiresAt":${jsonDate(doc.expiresAt)},` +
    `"createdAt":${jsonDate(doc.createdAt)}}`
  );
}

const FIELDS = bsonFieldNames([
  "_id",
  "organizationId",
  "email",
  "role",
  "status",
  "teamId",
  "inviterId",
  "expiresAt",
  "createdAt",
]);
const [ID, ORGANIZATION, EMAIL, ROLE, STATUS, TEAM, INVITER, EXPIRES, CREATED] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8,
] as const;

/**
 * The JSON array `jsonArray(docs, invitationJson)` would write for the decoded page, copied from the
 * BSON bytes (members/types.ts writeMembersWithUsersJson says how a document of unexpected shape is
 * written: decoded, by invitationJson).
 */
export function writeInvitationsJson(out: BsonJsonWriter, page: RawPage<InvitationDoc>): void {
  const fields = new BsonFields(FIELDS);
  out.text("[");
  for (let index = 0; index < page.length; index++) {
    if (index > 0) out.text(",");
    fields.read(page.bytes, page.starts[index] as number);
    const mark = out.length;
    if (!writeInvitation(out, fields, page.bytes)) {
      out.truncate(mark);
      out.text(invitationJson(page.decode(index)));
    }
  }
  out.text("]");
}

/** InvitationDoc's fields in toInvitation's order (a teamId is a string or null, never absent). */
const INVITATION_JSON: readonly JsonField[] = [
  { key: "id", slot: ID, type: TYPE_OBJECT_ID },
  { key: "organizationId", slot: ORGANIZATION, type: TYPE_OBJECT_ID },
  { key: "email", slot: EMAIL, type: TYPE_STRING },
  { key: "role", slot: ROLE, type: TYPE_STRING },
  { key: "status", slot: STATUS, type: TYPE_STRING },
  { key: "teamId", slot: TEAM, type: TYPE_STRING, orNull: "null" },
  { key: "inviterId", slot: INVITER, type: TYPE_OBJECT_ID },
  { key: "expiresAt", slot: EXPIRES, type: TYPE_DATE },
  { key: "createdAt", slot: CREATED, type: TYPE_DATE },
];

function writeInvitation(out: BsonJsonWriter, fields: BsonFields, bytes: Uint8Array): boolean {
  out.text("{");
  if (!writeJsonFields(out, fields, bytes, INVITATION_JSON)) return false;
  out.text("}");
  return true;
}
