import type { AuthContext } from "../../../context.ts";
import { listUsersContract } from "../../../contracts/admin.ts";
import type { UserDoc } from "../../../db/documents.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { jsonArray } from "../../../http/json-text.ts";
import { serializedJson } from "../../../http/run-endpoint.ts";
import { buildUserFilter, buildUserPage, type ListUsersQuery, type UserPage } from "../list-users-query.ts";
import { adminUserJson, type ListUsersResult, toAdminUser } from "../rules.ts";
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
    const { defaultRole } = auth.options.admin;
    // The JSON text is written directly (rules.ts adminUserJson); auth.api still gets the objects.
    return serializedJson(
      `{"users":${jsonArray(users, (user) => adminUserJson(user, defaultRole))},"total":${JSON.stringify(total)},` +
        `"limit":${JSON.stringify(page.limit)},"offset":${JSON.stringify(page.offset)}}`,
      toListUsersResult,
      { users, total, page, defaultRole },
    );
  },
});

function toListUsersResult(found: {
  users: UserDoc[];
  total: number;
  page: UserPage;
  defaultRole: string;
}): ListUsersResult {
  return {
    users: found.users.map((user) => toAdminUser(user, found.defaultRole)),
    total: found.total,
    limit: found.page.limit,
    offset: found.page.offset,
  };
}

/** Any query: the users collection's own filter, sort and count (what the keyed reads fall back to). */
async function scanUsers(auth: AuthContext, query: ListUsersQuery, page: UserPage) {
  const filter = buildUserFilter(query, auth.options.admin.defaultRole);
  const [users, total] = await Promise.all([findUsersPage(auth, filter, page), countUsers(auth, filter)]);
  return { users, total };
}
