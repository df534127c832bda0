import { type Invitation, invitationModel } from "../../../contracts/organization-models.ts";
import { type BsonJsonWriter, writeJsonFields } from "../../../db/bson-json.ts";
import type { InvitationDoc } from "../../../db/documents.ts";
import { modelJsonShape, toModelValue, writeModelJson } from "../../../db/model.ts";
import { BsonFields, type RawPage } from "../../../db/raw-page.ts";

export type { CreatedInvitation } from "../../../contracts/organization-invitations.ts";
export type { Invitation } from "../../../contracts/organization-models.ts";

/** The API value of a stored invitation (contracts/organization-models.ts invitationModel). */
export function toInvitation(doc: InvitationDoc): Invitation {
  return toModelValue(invitationModel, doc);
}

/**
 * `JSON.stringify(toInvitation(doc))`, written directly for get-full-organization's list (members/types.ts
 * memberWithUserJson says why); types.test.ts compares the two byte for byte.
 * @internal Exported for its unit test (types.test.ts).
 */
export function invitationJson(doc: InvitationDoc): string {
  return writeModelJson(invitationModel, doc);
}

const INVITATION_JSON = modelJsonShape(invitationModel);

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
