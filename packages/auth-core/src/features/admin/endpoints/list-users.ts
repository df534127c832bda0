import type { AuthContext } from "../../../context.ts";
import { listUsersContract } from "../../../contracts/admin.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { buildUserFilter, buildUserPage, type ListUsersQuery, type UserPage } from "../list-users-query.ts";
import { type ListUsersResult, toAdminUser } from "../rules.ts";
import { countUsers, findUsersPage, findUsersPageFromKeys } from "../service.ts";
import { requireAdminPermission } from "./guards.ts";

/** GET /admin/list-users: search, filter, sort and paginate (at most 100 per page). */
export const listUsers = defineEndpoint(listUsersContract, {
  sensitive: true,
  async handler(ctx): Promise<ListUsersResult> {
    const { auth, query } = ctx;
    requireAdminPermission(auth, ctx.session, { user: ["list"] });
    const page = buildUserPage(query);
    const { users, total } =
      (await findUsersPageFromKeys(auth, query, page)) ?? (await scanUsers(auth, query, page));
    return {
      users: users.map((user) => toAdminUser(user, auth.options.admin.defaultRole)),
      total,
      limit: page.limit,
      offset: page.offset,
    };
  },
});

/** Any query: the users collection's own filter, sort and count (what the keyed reads fall back to). */
async function scanUsers(auth: AuthContext, query: ListUsersQuery, page: UserPage) {
  const filter = buildUserFilter(query, auth.options.admin.defaultRole);
  const [users, total] = await Promise.all([findUsersPage(auth, filter, page), countUsers(auth, filter)]);
  return { users, total };
}
