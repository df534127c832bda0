import type { AuthContext } from "../../../context.ts";
import { listUsersContract } from "../../../contracts/admin.ts";
import type { UserDoc } from "../../../db/documents.ts";
import { holdUsersListing, type UsersListing, usersOfListing } from "../../../db/listing-cache.ts";
import { readUsersListingVersion } from "../../../db/listing-version.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { serializedJson } from "../../../http/endpoint-outcome.ts";
import { jsonArray } from "../../../http/json-text.ts";
import { buildUserFilter, buildUserPage, type ListUsersQuery, type UserPage } from "../list-users-query.ts";
import { adminUserJson, type ListUsersResult, toAdminUser } from "../rules.ts";
import { countUsers, findUsersPage, findUsersPageFromKeys } from "../service.ts";
import { requireAdminPermission } from "./guards.ts";

/**
 * GET /admin/list-users: search, filter, sort and paginate (at most 100 per page). A page answered
 * before is answered again from memory while the users' listing version read first is the one it
 * was stored under (admin.listingCache; db/listing-version.ts): the admin's session and role are
 * read from the database either way.
 */
export const listUsers = defineEndpoint(listUsersContract, {
  sensitive: true,
  async handler(ctx): Promise<ListUsersResult> {
    const { auth, query } = ctx;
    requireAdminPermission(auth, ctx.session, { user: ["list"] });
    const page = buildUserPage(query);
    const { defaultRole } = auth.options.admin;
    const cache = auth.userListings;
    const version = cache ? await readUsersListingVersion(auth.collections) : 0;
    const key = cache ? pageKey(query, page) : "";
    const held = cache?.get(key, version);
    if (held) return serializedJson(held.text, fromHeld, { held, page, defaultRole });
    const { users, total } =
      (await findUsersPageFromKeys(auth, query, page)) ?? (await scanUsers(auth, query, page));
    // The JSON text is written directly (rules.ts adminUserJson); auth.api still gets the objects.
    const text =
      `{"users":${jsonArray(users, (user) => adminUserJson(user, defaultRole))},"total":${JSON.stringify(total)},` +
      `"limit":${JSON.stringify(page.limit)},"offset":${JSON.stringify(page.offset)}}`;
    if (cache) holdUsersListing(cache, key, version, { text, users, total });
    return serializedJson(text, toListUsersResult, { users, total, page, defaultRole });
  },
});

/** The cache key of a query: every field that shapes the answer, in one order. */
function pageKey(query: ListUsersQuery, page: UserPage): string {
  return JSON.stringify([
    query.searchValue ?? "",
    query.searchField ?? null,
    query.searchOperator ?? null,
    query.filterField ?? null,
    query.filterValue ?? null,
    query.filterOperator ?? null,
    page.sort,
    page.offset,
    page.limit,
  ]);
}

function fromHeld(found: { held: UsersListing; page: UserPage; defaultRole: string }): ListUsersResult {
  return toListUsersResult({
    users: usersOfListing(found.held),
    total: found.held.total,
    page: found.page,
    defaultRole: found.defaultRole,
  });
}

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
