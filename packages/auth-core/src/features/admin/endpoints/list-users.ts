import { listUsersContract } from "../../../contracts/admin.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { buildUserFilter, buildUserPage } from "../list-users-query.ts";
import { type ListUsersResult, toAdminUser } from "../rules.ts";
import { countUsers, findUsersPage } from "../service.ts";
import { requireAdminPermission } from "./guards.ts";

/** GET /admin/list-users: search, filter, sort and paginate (at most 100 per page). */
export const listUsers = defineEndpoint(listUsersContract, {
  sensitive: true,
  async handler(ctx): Promise<ListUsersResult> {
    const { auth, query } = ctx;
    requireAdminPermission(auth, ctx.session, { user: ["list"] });
    const filter = buildUserFilter(query, auth.options.admin.defaultRole);
    const page = buildUserPage(query);
    const [users, total] = await Promise.all([findUsersPage(auth, filter, page), countUsers(auth, filter)]);
    return {
      users: users.map((user) => toAdminUser(user, auth.options.admin.defaultRole)),
      total,
      limit: page.limit,
      offset: page.offset,
    };
  },
});
