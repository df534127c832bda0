import { listAuditEventsContract } from "../../../contracts/admin.ts";
import { auditEventModel } from "../../../contracts/admin-models.ts";
import { parseId } from "../../../db/ids.ts";
import { toModelValue } from "../../../db/model.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { MAX_PAGE_SIZE } from "../list-users-query.ts";
import type { AuditEventList } from "../rules.ts";
import { countAuditEvents, findAuditEvents } from "../service.ts";
import type { AuditFilter } from "../store.ts";
import { requireAdminPermission } from "./guards.ts";

/**
 * GET /admin/list-audit-events?actorId&subjectId&action&limit&offset → {events, total, limit, offset},
 * newest first, at most 100 per page. An id that is not 24 hex characters matches nothing (empty
 * page); `action` is one of AUDIT_ACTIONS (the contract refuses any other value with 400).
 */
export const listAuditEvents = defineEndpoint(listAuditEventsContract, {
  sensitive: true,
  async handler(ctx): Promise<AuditEventList> {
    const { auth, query } = ctx;
    requireAdminPermission(auth, ctx.session, { audit: ["list"] });
    const limit = Math.min(Math.max(query.limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const offset = query.offset ?? 0;
    const actorId = query.actorId === undefined ? undefined : parseId(query.actorId);
    const subjectId = query.subjectId === undefined ? undefined : parseId(query.subjectId);
    if (actorId === null || subjectId === null) return { events: [], total: 0, limit, offset };
    const filter: AuditFilter = {
      ...(actorId ? { actorId } : {}),
      ...(subjectId ? { subjectId } : {}),
      ...(query.action ? { action: query.action } : {}),
    };
    const [events, total] = await Promise.all([
      findAuditEvents(auth, filter, limit, offset),
      countAuditEvents(auth, filter),
    ]);
    return { events: events.map((event) => toModelValue(auditEventModel, event)), total, limit, offset };
  },
});
