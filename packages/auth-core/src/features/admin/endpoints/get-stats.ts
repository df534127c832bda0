import { getAdminStatsContract } from "../../../contracts/admin.ts";
import type { AdminStats } from "../../../contracts/admin-models.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { readAdminStats } from "../stats/service.ts";
import { requireAdminPermission } from "./guards.ts";

/**
 * Server-only GET /admin/stats → the dashboard's totals over every user, counted by the database
 * (stats/store.ts, through the users and session stores): no listing cap, whatever the number of users.
 */
export const getAdminStats = defineEndpoint(getAdminStatsContract, {
  sensitive: true,
  async handler(ctx): Promise<AdminStats> {
    requireAdminPermission(ctx.auth, ctx.session, { user: ["list"], session: ["list"] });
    return readAdminStats(ctx.auth);
  },
});
