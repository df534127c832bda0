import type { z } from "zod";
import type { AuthContext } from "../../context.ts";
import { listUsersQuery } from "../../contracts/admin-fields.ts";
import type { AdminUser } from "../../contracts/admin-models.ts";
import type { SessionDoc, UserDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import type { SessionWithUser } from "../session/index.ts";
import { buildUserFilter, buildUserPage } from "./list-users-query.ts";
import { toAdminUser } from "./rules.ts";
import { findUsersPage } from "./store.ts";

/**
 * The operator: someone administering from a terminal (the `tessera` CLI), with access to the
 * database and no HTTP session. Admin endpoints see them as their caller through `auth.api` built
 * with operator callers (operator.ts at the package root), so every rule of the admin area still
 * holds — last owner, ban ends sessions, may not ban oneself — except the permission checks: the
 * operator holds every admin permission, as a listed admin id does (they hold the database anyway).
 * Audit events record `actor` (e.g. `cli:alice`) and no actor id.
 */
export interface OperatorCaller extends SessionWithUser {
  operator: string;
}

/** A caller for `actor`: a user and session that exist only in memory (fresh ids match no row). */
export function operatorCaller(actor: string, now: Date): OperatorCaller {
  const user: UserDoc = {
    _id: new ObjectId(),
    email: "operator@localhost.invalid",
    emailVerified: true,
    name: actor,
    image: null,
    createdAt: now,
    updatedAt: now,
  };
  const session: SessionDoc = {
    _id: new ObjectId(),
    userId: user._id,
    token: "",
    expiresAt: new Date(now.getTime() + 60_000),
    createdAt: now,
    updatedAt: now,
    ipAddress: null,
    userAgent: null,
    activeOrganizationId: null,
    dontRemember: true,
  };
  return { session, user, fromCache: false, operator: actor };
}

/** The operator's name when the caller is one, else null. */
export function operatorOf(caller: SessionWithUser | null): string | null {
  if (!caller || !("operator" in caller)) return null;
  const { operator } = caller as OperatorCaller;
  return typeof operator === "string" ? operator : null;
}

/**
 * Every user the list-users query matches, in one read: list-users pages at most 100 users a call
 * with an offset, which costs a sort per page (`tessera users list --all` on 10,000 users took
 * minutes that way on FerretDB). Same schema, filter and shape as list-users. Null when the query
 * fails list-users' schema.
 */
export async function findAllListedUsers(
  auth: { context: AuthContext },
  query: Omit<z.input<typeof listUsersQuery>, "limit" | "offset">,
): Promise<AdminUser[] | null> {
  const parsed = listUsersQuery.safeParse(query);
  if (!parsed.success) return null;
  const { defaultRole } = auth.context.options.admin;
  const { sort } = buildUserPage(parsed.data);
  const users = await findUsersPage(auth.context.collections, buildUserFilter(parsed.data, defaultRole), {
    sort,
    limit: 0,
    offset: 0,
  });
  return users.map((user) => toAdminUser(user, defaultRole));
}
