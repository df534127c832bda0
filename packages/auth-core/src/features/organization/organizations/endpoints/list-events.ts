import type { EventPage } from "../../../../contracts/events-listing.ts";
import { listOrganizationEventsContract } from "../../../../contracts/events-listing.ts";
import { defineEndpoint } from "../../../../http/define-endpoint.ts";
import { listEventsPage } from "../../../events/index.ts";
import {
  assertPermission,
  requireCaller,
  requireMembership,
  resolveOrganizationId,
} from "../../endpoints/guards.ts";

/**
 * GET /organization/list-events?organizationId&type&userId&since&cursor&limit → {events, nextCursor}: the
 * organization's own events, newest first, for the members who may update it (owners and admins by
 * default). Never another organization's: the filter is the membership's organization
 * (docs/security.md, IDOR).
 */
export const listOrganizationEvents = defineEndpoint(listOrganizationEventsContract, {
  sensitive: true,
  async handler(ctx): Promise<EventPage> {
    const { auth, query } = ctx;
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, query.organizationId);
    const member = await requireMembership(auth, organizationId, caller.user._id);
    assertPermission(auth, member, { organization: ["update"] }, "RESOURCE_ACCESS_NOT_ALLOWED");
    return listEventsPage(auth.collections, {
      organizationId: member.organizationId.toHexString(),
      ...(query.type ? { type: query.type } : {}),
      ...(query.userId ? { userId: query.userId } : {}),
      ...(query.since ? { since: query.since } : {}),
      ...(query.cursor ? { before: query.cursor } : {}),
      ...(query.limit ? { limit: query.limit } : {}),
    });
  },
});
