import type { AuthContext } from "../../context.ts";
import type { AuditAction } from "../../contracts/admin-fields.ts";
import type { ObjectId } from "../../db/ids.ts";
import { recordAuditEvent } from "../admin/index.ts";
import type { ScimCaller } from "./endpoints/serve.ts";

/** A directory's write, audited with the actor `scim:<token id>` (docs/security.md "SCIM"). */
export function recordScimChange(
  auth: AuthContext,
  caller: ScimCaller,
  action: AuditAction,
  subjectId: ObjectId | null,
  details: Record<string, unknown>,
): Promise<void> {
  return recordAuditEvent(auth, {
    action,
    actorId: null,
    actor: caller.actor,
    subjectId,
    details: { organizationId: caller.organizationId.toHexString(), ...details },
    ip: caller.ip,
    userAgent: caller.userAgent,
  });
}
