import type { AuditAction } from "../../../../contracts/admin-fields.ts";
import type { TeamDoc } from "../../../../db/documents.ts";
import type { ObjectId } from "../../../../db/ids.ts";
import type { EndpointContext } from "../../../../http/define-endpoint.ts";
import { auditSource, recordAuditEvent } from "../../../admin/index.ts";

/**
 * A change to a team's memberships goes to the audit trail like an operator's organization changes
 * (docs/security.md "Team roles"): who did it, to whom, in which team and organization. Written after
 * the change succeeded.
 */
export function recordTeamChange(
  ctx: Pick<EndpointContext<unknown, unknown>, "auth" | "ip" | "headers" | "session">,
  action: Extract<AuditAction, `organization.${string}-team-member${string}`>,
  team: TeamDoc,
  userId: ObjectId,
  details: Record<string, unknown> = {},
): Promise<void> {
  const source = auditSource(ctx);
  return recordAuditEvent(ctx.auth, {
    action,
    actorId: ctx.session?.user._id ?? null,
    actor: source.actor,
    subjectId: userId,
    details: {
      organizationId: team.organizationId.toHexString(),
      teamId: team._id.toHexString(),
      ...details,
    },
    ip: source.ip,
    userAgent: source.userAgent,
  });
}
