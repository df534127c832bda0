import type { AuthContext } from "../../../context.ts";
import type { AuditAction } from "../../../contracts/admin-fields.ts";
import type { SsoProviderDoc } from "../../../db/documents.ts";
import { auditSource, recordAuditEvent } from "../../admin/index.ts";
import type { SessionWithUser } from "../../session/index.ts";

/** One audit row per change of a connection (docs/security.md "Single sign-on": every step is audited). */
export async function auditConnectionChange(
  auth: AuthContext,
  ctx: { ip: string | null; headers: Headers; session: SessionWithUser | null },
  action: Extract<AuditAction, `organization.sso-${string}`>,
  provider: SsoProviderDoc,
  details: Record<string, unknown> = {},
): Promise<void> {
  const { ip, userAgent, actor } = auditSource(ctx);
  await recordAuditEvent(auth, {
    action,
    actorId: ctx.session?.user._id ?? null,
    actor,
    subjectId: null,
    details: {
      organizationId: provider.organizationId.toHexString(),
      providerId: provider.providerId,
      type: provider.type,
      ...details,
    },
    ip,
    userAgent,
  });
}
