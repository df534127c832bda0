import { adminRemoveUserPasskeyContract } from "../../../contracts/passkey.ts";
import { parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { deletePasskeyOfUser } from "../../passkey/index.ts";
import { auditSource, recordAuditEvent } from "../service.ts";
import { requireAdminPermission, requireUserToManage } from "./guards.ts";

/**
 * POST /admin/remove-user-passkey {userId, passkeyId}: removes a passkey — a lost or stolen
 * authenticator — even the user's last way to sign in (the admin decides; the user then recovers
 * through a reset or the admin). The delete decides a race of two removals: one audit event.
 */
export const adminRemoveUserPasskey = defineEndpoint(adminRemoveUserPasskeyContract, {
  sensitive: true,
  async handler(ctx): Promise<{ success: true }> {
    const { auth, body } = ctx;
    const caller = requireAdminPermission(auth, ctx.session, { user: ["update"] });
    const target = await requireUserToManage(auth, caller, body.userId);
    const id = parseId(body.passkeyId);
    const removed = id ? await deletePasskeyOfUser(auth, target._id, id) : null;
    if (!removed) throw new AuthError("PASSKEY_NOT_FOUND");
    await recordAuditEvent(auth, {
      action: "passkey.remove",
      actorId: caller.user._id,
      subjectId: target._id,
      details: { passkeyId: removed.id, name: removed.name, credentialID: removed.credentialID },
      ...auditSource(ctx),
    });
    return { success: true };
  },
});
