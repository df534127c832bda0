import type { EventPage } from "../../../contracts/events-listing.ts";
import { listEventsContract } from "../../../contracts/events-listing.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { listEventsPage } from "../../events/index.ts";
import { requireAdminPermission } from "./guards.ts";

/**
 * GET /admin/list-events?type&organizationId&userId&since&cursor&limit → {events, nextCursor}, newest
 * first. Events are the audit trail's kin: the audit list permission reads them.
 */
export const listEvents = defineEndpoint(listEventsContract, {
  sensitive: true,
  async handler(ctx): Promise<EventPage> {
    const { auth, query } = ctx;
    requireAdminPermission(auth, ctx.session, { audit: ["list"] });
    return listEventsPage(auth.collections, {
      ...(query.type ? { type: query.type } : {}),
      ...(query.userId ? { userId: query.userId } : {}),
      ...(query.organizationId ? { organizationId: query.organizationId } : {}),
      ...(query.since ? { since: query.since } : {}),
      ...(query.cursor ? { before: query.cursor } : {}),
      ...(query.limit ? { limit: query.limit } : {}),
    });
  },
});
