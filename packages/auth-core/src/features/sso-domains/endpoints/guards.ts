import type { AuthContext } from "../../../context.ts";
import type { ObjectId } from "../../../db/ids.ts";
import { auditSource } from "../../admin/index.ts";
import {
  assertPermission,
  hasPermission,
  requireCaller,
  requireMembership,
  resolveOrganizationId,
  roleTableOf,
} from "../../organization/index.ts";
import type { SessionWithUser } from "../../session/index.ts";
import type { DomainActor } from "../service.ts";

/**
 * The caller may manage the named or active organization's domains — and its SCIM connections
 * (features/scim), by the same rule: whoever may update the organization (owners and admins by
 * default). Answers the organization and the actor to audit.
 */
export async function requireDomainManager(
  ctx: { auth: AuthContext; session: SessionWithUser | null; ip: string | null; headers: Headers },
  organizationIdInput: string | undefined,
): Promise<{ organizationId: ObjectId; by: DomainActor }> {
  const caller = requireCaller(ctx.session);
  const organizationId = resolveOrganizationId(caller.session, organizationIdInput);
  const member = await requireMembership(ctx.auth, organizationId, caller.user._id);
  assertPermission(ctx.auth, member, { organization: ["update"] }, "ORGANIZATION_UPDATE_NOT_ALLOWED");
  const { ip, userAgent, actor } = auditSource(ctx);
  return { organizationId, by: { userId: caller.user._id, actor, ip, userAgent } };
}

/**
 * Any member of the named or active organization may read its domains; `canManage` says whether
 * the caller may also see pending claims (their proof tokens) and change anything.
 */
export async function requireDomainReader(
  ctx: { auth: AuthContext; session: SessionWithUser | null },
  organizationIdInput: string | undefined,
): Promise<{ organizationId: ObjectId; canManage: boolean }> {
  const caller = requireCaller(ctx.session);
  const organizationId = resolveOrganizationId(caller.session, organizationIdInput);
  const member = await requireMembership(ctx.auth, organizationId, caller.user._id);
  const canManage = hasPermission(member.role, { organization: ["update"] }, roleTableOf(ctx.auth));
  return { organizationId, canManage };
}
