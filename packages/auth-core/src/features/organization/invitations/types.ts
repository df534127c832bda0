import type { Invitation } from "../../../contracts/organization-models.ts";
import { type BsonJsonWriter, jsonShape, writeJsonFields } from "../../../db/bson-json.ts";
import type { InvitationDoc } from "../../../db/documents.ts";
import { BsonFields, type RawPage, TYPE_DATE, TYPE_OBJECT_ID, TYPE_STRING } from "../../../db/raw-page.ts";
import { jsonDate } from "../../../http/json-text.ts";

export type { CreatedInvitation } from "../../../contracts/organization-invitations.ts";
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

/** InvitationDoc's fields in toInvitation's order (a teamId is a string or null, never absent). */
const INVITATION_JSON = jsonShape([
  { field: "_id", key: "id", type: TYPE_OBJECT_ID },
  { field: "organizationId", type: TYPE_OBJECT_ID },
  { field: "email", type: TYPE_STRING },
  { field: "role", type: TYPE_STRING },
  { field: "status", type: TYPE_STRING },
  { field: "teamId", type: TYPE_STRING, orNull: "null" },
  { field: "inviterId", type: TYPE_OBJECT_ID },
  { field: "expiresAt", type: TYPE_DATE },
  { field: "createdAt", type: TYPE_DATE },
]);

/**
 * The JSON array `jsonArray(docs, invitationJson)` would write for the decoded page, copied from the
 * BSON bytes (members/types.ts writeMembersWithUsersJson says how a document of unexpected shape is
 * written: decoded, by invitationJson).
 */
export function writeInvitationsJson(out: BsonJsonWriter, page: RawPage<InvitationDoc>): void {
  const fields = new BsonFields(INVITATION_JSON.names);
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

function writeInvitation(out: BsonJsonWriter, fields: BsonFields, bytes: Uint8Array): boolean {
  out.text("{");
  if (!writeJsonFields(out, fields, bytes, INVITATION_JSON)) return false;
  out.text("}");
  return true;
}
