/**
 * The translation of a (validated) GET /admin/list-users query into a MongoDB filter and page.
 * Pure. The query schema (contracts/admin-fields.ts) whitelists every field, operator and sort
 * key; here every value is matched literally (regex metacharacters escaped), so no request can
 * reach an operator or a field it was not given (docs/security.md A).
 */

import {
  type ListUsersQuery,
  MAX_PAGE_SIZE,
  USER_FILTER_FIELDS,
  type UserFilterField,
} from "../../contracts/admin-fields.ts";
import { escapeRegex, listItemPattern } from "../../db/regex.ts";

export { type ListUsersQuery, MAX_PAGE_SIZE } from "../../contracts/admin-fields.ts";

function textMatch(operator: string, value: string): Record<string, unknown> {
  const escaped = escapeRegex(value);
  if (operator === "eq") return { $eq: value };
  if (operator === "ne") return { $ne: value };
  const pattern =
    operator === "starts_with" ? `^${escaped}` : operator === "ends_with" ? `${escaped}$` : escaped;
  return { $regex: pattern, $options: "i" };
}

/**
 * The MongoDB filter of a (validated) query. `defaultRole`: users stored without a role hold it
 * (docs/decisions/0013-admin.md "new users get user"), so a role filter on it also matches the absent field.
 */
export function buildUserFilter(query: ListUsersQuery, defaultRole: string): Record<string, unknown> {
  const clauses: Record<string, unknown>[] = [];
  if (query.searchValue !== undefined && query.searchValue !== "") {
    const field = query.searchField ?? "email";
    clauses.push({ [field]: textMatch(query.searchOperator ?? "contains", query.searchValue) });
  }
  if (query.filterField !== undefined && query.filterValue !== undefined) {
    clauses.push(
      filterClause(query.filterField, query.filterOperator ?? "eq", query.filterValue, defaultRole),
    );
  }
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? clauses[0]! : { $and: clauses };
}

function filterClause(field: UserFilterField, operator: string, value: string, defaultRole: string) {
  const kind = USER_FILTER_FIELDS[field];
  if (kind === "boolean") {
    // Absent means false (users created before the admin area, or never banned).
    const wanted = (value === "true") === (operator === "eq");
    return { [field]: wanted ? { $eq: true } : { $ne: true } };
  }
  if (kind === "date") return { [field]: { [`$${operator}`]: new Date(value) } };
  if (field === "role" && (operator === "eq" || operator === "ne"))
    return roleClause(operator, value, defaultRole);
  return { [field]: textMatch(operator, value) };
}

/**
 * A user holds a role when it is one of the comma-separated names stored (a plain equality
 * would miss "admin,support"); the name is regex-escaped. Users stored without a role
 * hold the default one.
 */
function roleClause(operator: "eq" | "ne", value: string, defaultRole: string): Record<string, unknown> {
  const member = new RegExp(listItemPattern(value));
  if (operator === "eq") {
    const holds = { role: { $regex: member } };
    return value === defaultRole ? { $or: [holds, { role: { $exists: false } }] } : holds;
  }
  const lacks = { role: { $not: member } };
  return value === defaultRole ? { $and: [lacks, { role: { $exists: true } }] } : lacks;
}

export interface UserPage {
  sort: Record<string, 1 | -1>;
  limit: number;
  offset: number;
}

/** limit capped at 100; newest first by default. */
export function buildUserPage(query: ListUsersQuery): UserPage {
  const direction = query.sortDirection === "asc" ? 1 : -1;
  const sortBy = query.sortBy ?? "createdAt";
  const limit = Math.min(Math.max(query.limit ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  // _id breaks ties, so pages never repeat or skip a user with an equal sort value.
  return { sort: { [sortBy]: direction, _id: direction }, limit, offset: query.offset ?? 0 };
}
