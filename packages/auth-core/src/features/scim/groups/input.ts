import { z } from "zod";
import { type FilterNode, parsePatchPath } from "../filter/parse.ts";
import { ScimFilterError } from "../filter/tokenize.ts";
import { TEAM_EXTENSION_URN } from "../protocol/discovery.ts";
import { ScimError } from "../protocol/scim-error.ts";
import { readPatchOperations, refuseInvalid } from "../users/input.ts";

/**
 * What a directory may set on a group (RFC 7643 §4.2, RFC 7644 §3.5): displayName (the team's name),
 * externalId, members (user ids), and the team role of Tessera's extension
 * (`urn:tessera:params:scim:schemas:extension:team:2.0:Group`, docs/security.md "SCIM"). PATCH member
 * changes stay an ordered list (service.ts applies them to the current members): Entra's
 * `members[value eq "…"]` removes, Okta's replace of the whole list, an add of several.
 */
export type MemberChange = { kind: "add" | "remove" | "replace"; ids: string[] } | { kind: "remove-all" };

export interface GroupChanges {
  displayName?: string;
  externalId?: string | null;
  /** null: removed — the group's members are team members (the default). */
  role?: string | null;
  members: MemberChange[];
}

const text = z.string().trim().min(1).max(256);
const memberList = z.array(z.looseObject({ value: z.string().min(1).max(64) })).max(1000);
const extension = z.looseObject({ role: z.string().trim().min(1).max(64).optional() });

const groupBody = z.looseObject({
  displayName: text,
  externalId: text.nullish(),
  members: memberList.nullish(),
  [TEAM_EXTENSION_URN]: extension.optional(),
});

/** A POST or PUT body: the whole group (members absent: none). */
export function readGroupBody(body: unknown): GroupChanges & { displayName: string } {
  const parsed = groupBody.safeParse(body);
  if (!parsed.success) throw refuseInvalid(parsed.error);
  const group = parsed.data;
  const role = group[TEAM_EXTENSION_URN]?.role;
  return {
    displayName: group.displayName,
    externalId: group.externalId ?? null,
    ...(role !== undefined ? { role } : {}),
    members: [{ kind: "replace", ids: (group.members ?? []).map((member) => member.value) }],
  };
}

/** PATCH operations in order, folded into the changes they make. */
export function readGroupPatch(body: unknown): GroupChanges {
  const changes: GroupChanges = { members: [] };
  for (const { op, path, value } of readPatchOperations(body)) {
    if (path === undefined) {
      if (op === "remove") throw new ScimError(400, "A remove operation needs a path", "noTarget");
      if (!value || typeof value !== "object" || Array.isArray(value))
        throw new ScimError(400, "An operation without a path needs an object value", "invalidValue");
      for (const [key, inner] of Object.entries(value)) applyPath(changes, op, key, inner);
    } else applyPath(changes, op, path, value);
  }
  return changes;
}

function applyPath(changes: GroupChanges, op: "add" | "replace" | "remove", rawPath: string, value: unknown) {
  const { target, filter } = readTarget(rawPath);
  const invalid = () => new ScimError(400, `Invalid value for '${rawPath}'`, "invalidValue");
  if (target === "members" && filter) {
    if (op !== "remove") throw new ScimError(400, `'${rawPath}' can only be removed`, "invalidPath");
    changes.members.push({ kind: "remove", ids: readMemberFilter(filter, rawPath) });
    return;
  }
  switch (target) {
    case "members": {
      if (op === "remove" && value === undefined) {
        changes.members.push({ kind: "remove-all" });
        return;
      }
      const list = memberList.safeParse(value);
      if (!list.success) throw invalid();
      changes.members.push({ kind: op, ids: list.data.map((member) => member.value) });
      return;
    }
    case "displayname": {
      if (op === "remove") throw new ScimError(400, `'${rawPath}' cannot be removed`, "mutability");
      const name = text.safeParse(value);
      if (!name.success) throw invalid();
      changes.displayName = name.data;
      return;
    }
    case "externalid": {
      if (op === "remove") {
        changes.externalId = null;
        return;
      }
      const id = text.safeParse(value);
      if (!id.success) throw invalid();
      changes.externalId = id.data;
      return;
    }
    case "role":
    case TEAM_EXTENSION_URN.toLowerCase(): {
      if (op === "remove") {
        changes.role = null;
        return;
      }
      const role =
        target === "role" ? z.string().trim().min(1).max(64).safeParse(value) : extension.safeParse(value);
      if (!role.success) throw invalid();
      const named = typeof role.data === "string" ? role.data : role.data.role;
      if (named !== undefined) changes.role = named;
      return;
    }
    // Okta sends the id back in a pathless replace; it cannot change (RFC 7643 §3.1 readOnly).
    case "id":
    case "schemas":
    case "meta":
      return;
    default:
      throw new ScimError(400, `Unknown or read-only attribute '${rawPath}'`, "invalidPath");
  }
}

/** `members`, `displayName`, … lower-cased; the extension's `role` by its full path too. */
function readTarget(rawPath: string): { target: string; filter: FilterNode | null } {
  if (rawPath.toLowerCase() === TEAM_EXTENSION_URN.toLowerCase())
    return { target: TEAM_EXTENSION_URN.toLowerCase(), filter: null };
  try {
    const { path, filter, sub } = parsePatchPath(rawPath);
    const schema = path.schema;
    if (schema === TEAM_EXTENSION_URN.toLowerCase() && path.attribute === "role" && !filter)
      return { target: "role", filter: null };
    if (schema !== null && schema !== "urn:ietf:params:scim:schemas:core:2.0:group")
      throw new ScimError(400, `Unknown attribute '${rawPath}'`, "invalidPath");
    if (sub !== null || path.sub !== null || path.attribute === "role")
      throw new ScimError(400, `Unknown or read-only attribute '${rawPath}'`, "invalidPath");
    return { target: path.attribute, filter };
  } catch (error) {
    if (error instanceof ScimFilterError) throw new ScimError(400, error.message, "invalidPath");
    throw error;
  }
}

/** `members[value eq "a"]`, or several joined by `or`: the ids named. */
function readMemberFilter(filter: FilterNode, rawPath: string): string[] {
  if (filter.kind === "or")
    return [...readMemberFilter(filter.left, rawPath), ...readMemberFilter(filter.right, rawPath)];
  if (
    filter.kind === "compare" &&
    filter.operator === "eq" &&
    filter.path.attribute === "value" &&
    filter.path.sub === null &&
    typeof filter.value === "string"
  )
    return [filter.value];
  throw new ScimError(400, `Only members[value eq "…"] may filter members: '${rawPath}'`, "invalidFilter");
}
