import { MAX_PAGE_SIZE } from "../../../../contracts/admin-fields.ts";
import { type AuditEventList, auditEventModel } from "../../../../contracts/admin-models.ts";
import { listOrganizationAuditEventsContract } from "../../../../contracts/organization-audit.ts";
import { parseId } from "../../../../db/ids.ts";
import { toModelValue } from "../../../../db/model.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { findOrganizationAuditEvents } from "../../../admin/index.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  resolveOrganizationId,
} from "../../endpoints/guards.ts";

/**
 * GET /organization/list-audit-events?organizationId&userId&action&from&to&limit&offset →
 * {events, total, limit, offset}: the audit trail of the caller's organization, newest first, for
 * the members who may update it. The filter is the membership's organization, never the query's
 * alone (docs/security.md, IDOR). A `userId` that is not 24 hex characters matches nothing.
 * Served here, not in features/admin (the trail's owner): admin may not import organization,
 * whose guards decide who reads.
 */
export const listOrganizationAuditEvents = defineEndpoint(listOrganizationAuditEventsContract, {
  sensitive: true,
  async handler(ctx): Promise<AuditEventList> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, query.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, member, { organization: ["update"] }, "RESOURCE_ACCESS_NOT_ALLOWED");
    const limit = query.limit ?? MAX_PAGE_SIZE;
    const offset = query.offset ?? 0;
    const userId = query.userId === undefined ? undefined : parseId(query.userId);
    if (userId === null) return { events: [], total: 0, limit, offset };
    const { events, total } = await findOrganizationAuditEvents(
      auth,
      {
        organizationId: member.organizationId.toHexString(),
        ...(userId ? { userId } : {}),
        ...(query.action ? { action: query.action } : {}),
        ...(query.from ? { from: new Date(query.from) } : {}),
        ...(query.to ? { to: new Date(query.to) } : {}),
      },
      limit,
      offset,
    );
    return { events: events.map((event) => toModelValue(auditEventModel, event)), total, limit, offset };
  },
});
