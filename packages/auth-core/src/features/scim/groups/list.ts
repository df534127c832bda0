import type { AuthContext } from "../../../context.ts";
import type { ScimGroupDoc, TeamDoc } from "../../../db/documents.ts";
import { findOrganizationTeams } from "../../organization/index.ts";
import type { ScimCaller } from "../endpoints/serve.ts";
import { type CompareOperator, type FilterNode, type FilterValue, parseFilter } from "../filter/parse.ts";
import { ScimFilterError } from "../filter/tokenize.ts";
import { compareStrings } from "../filter/translate.ts";
import { ScimError } from "../protocol/scim-error.ts";
import * as store from "./store.ts";

/**
 * A page of the organization's groups. Without a filter the page is read in team-id order; with one
 * (RFC 7644 §3.4.2.2: `displayName eq`, `externalId eq`, `id eq` as Entra and Okta send them, and
 * the rest of the grammar) the organization's groups — at most MAX_FILTERED_GROUPS — are read with
 * their teams and matched here: displayName lives on the team, in the teams' owner.
 */

const MAX_FILTERED_GROUPS = 10_000;

export interface GroupPage {
  rows: { group: ScimGroupDoc; team: TeamDoc }[];
  total: number;
}

export async function listScimGroups(
  auth: AuthContext,
  caller: ScimCaller,
  filter: string | undefined,
  page: { startIndex: number; count: number },
): Promise<GroupPage> {
  const { collections } = auth;
  if (filter === undefined) {
    const total = await store.countScimGroups(collections, caller.organizationId, {});
    const groups =
      page.count === 0
        ? []
        : await store.findScimGroupsPage(
            collections,
            caller.organizationId,
            {},
            {
              offset: page.startIndex - 1,
              limit: page.count,
            },
          );
    return { rows: await withTeams(auth, caller, groups), total };
  }
  const node = parseOrRefuse(filter);
  const groups = await store.findScimGroupsPage(
    collections,
    caller.organizationId,
    {},
    {
      offset: 0,
      limit: MAX_FILTERED_GROUPS + 1,
    },
  );
  if (groups.length > MAX_FILTERED_GROUPS)
    throw new ScimError(400, "Too many groups to filter: narrow the directory's scope", "tooMany");
  const matched = (await withTeams(auth, caller, groups)).filter((row) => matches(node, row));
  const start = page.startIndex - 1;
  return { rows: matched.slice(start, start + page.count), total: matched.length };
}

async function withTeams(
  auth: AuthContext,
  caller: ScimCaller,
  groups: readonly ScimGroupDoc[],
): Promise<{ group: ScimGroupDoc; team: TeamDoc }[]> {
  if (groups.length === 0) return [];
  const teams = await findOrganizationTeams(
    auth,
    caller.organizationId,
    groups.map((group) => group.teamId),
  );
  const byId = new Map(teams.map((team) => [team._id.toHexString(), team]));
  return groups.flatMap((group) => {
    const team = byId.get(group.teamId.toHexString());
    return team ? [{ group, team }] : [];
  });
}

function parseOrRefuse(filter: string): FilterNode {
  try {
    return parseFilter(filter);
  } catch (error) {
    if (error instanceof ScimFilterError) throw new ScimError(400, error.message, "invalidFilter");
    throw error;
  }
}

/** The Group attributes a filter may name, as strings; `caseExact` per RFC 7643 §4.2 and §3.1. */
function readAttribute(
  path: { schema: string | null; attribute: string; sub: string | null },
  row: { group: ScimGroupDoc; team: TeamDoc },
): { value: string | null; caseExact: boolean } {
  const schema = path.schema;
  if (schema !== null && schema !== "urn:ietf:params:scim:schemas:core:2.0:group")
    throw new ScimError(400, `Unknown or unfilterable attribute '${path.attribute}'`, "invalidFilter");
  const name = path.sub === null ? path.attribute : `${path.attribute}.${path.sub}`;
  switch (name) {
    case "id":
      return { value: row.team._id.toHexString(), caseExact: true };
    case "displayname":
      return { value: row.team.name, caseExact: false };
    case "externalid":
      return { value: row.group.externalId, caseExact: true };
    case "meta.created":
      return { value: row.group.createdAt.toISOString(), caseExact: true };
    case "meta.lastmodified":
      return { value: row.group.updatedAt.toISOString(), caseExact: true };
    default:
      throw new ScimError(400, `Unknown or unfilterable attribute '${name}'`, "invalidFilter");
  }
}

function matches(node: FilterNode, row: { group: ScimGroupDoc; team: TeamDoc }): boolean {
  switch (node.kind) {
    case "and":
      return matches(node.left, row) && matches(node.right, row);
    case "or":
      return matches(node.left, row) || matches(node.right, row);
    case "not":
      return !matches(node.filter, row);
    case "value-path":
      throw new ScimError(400, "Groups take no value filters", "invalidFilter");
    case "present":
      return Boolean(readAttribute(node.path, row).value);
    case "compare":
      return compare(readAttribute(node.path, row), node.operator, node.value);
  }
}

function compare(
  found: { value: string | null; caseExact: boolean },
  operator: CompareOperator,
  expected: FilterValue,
): boolean {
  if (expected === null) return operator === "eq" ? !found.value : operator === "ne" ? !!found.value : false;
  if (typeof expected !== "string")
    throw new ScimError(400, `A string value is expected, not ${JSON.stringify(expected)}`, "invalidFilter");
  if (found.value === null) return operator === "ne";
  if (found.caseExact) return compareStrings(found.value, operator, expected);
  return compareStrings(found.value.toLowerCase(), operator, expected.toLowerCase());
}
