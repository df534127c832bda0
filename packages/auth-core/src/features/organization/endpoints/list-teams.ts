import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { idField } from "../schemas.ts";
import { requireCaller, requireMembership, resolveOrganizationId } from "../service.ts";
import { assertTeamsEnabled } from "../team-service.ts";
import { listTeams } from "../team-store.ts";
import { type Team, toTeam } from "../types.ts";

const LIST_LIMIT = 100;

/** SPEC §6: listing teams requires membership. One page (100). */
export const listOrganizationTeams = defineEndpoint({
  name: "listOrganizationTeams",
  method: "GET",
  path: "/organization/list-teams",
  auth: "session",
  query: z.strictObject({ organizationId: idField.optional() }),
  async handler(ctx): Promise<Team[]> {
    const { auth } = ctx;
    assertTeamsEnabled(auth);
    const caller = requireCaller(ctx.session);
    const organizationId = resolveOrganizationId(caller.session, ctx.query.organizationId);
    await requireMembership(auth, organizationId, caller.user._id);
    return (await listTeams(auth.collections, organizationId, LIST_LIMIT)).map(toTeam);
  },
});
