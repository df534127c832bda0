import { ObjectId } from "../../../db/ids.ts";
import { escapeRegex } from "../../../db/regex.ts";
import { type AttributeTarget, findAttribute, type StoredAttribute } from "./attributes.ts";
import type { AttrPath, CompareOperator, FilterNode, FilterValue } from "./parse.ts";
import { parseFilter } from "./parse.ts";
import { ScimFilterError } from "./tokenize.ts";

/**
 * A parsed filter as MongoDB filters: one over the users' fields, one over the directory's links
 * (attributes.ts), joined by `and` at the top (the caller reads one, then the other with the ids it
 * found: no $lookup on FerretDB v1). An `or`/`not` spanning both sides cannot be split that way and is
 * refused with invalidFilter. Values only ever become literals — a regex is built from an escaped
 * literal, never from input (docs/security.md "SCIM").
 */

type MongoFilter = Record<string, unknown>;

export interface TranslatedFilter {
  user: MongoFilter | null;
  link: MongoFilter | null;
}

type Side = "user" | "link";
/**
 * A translated subtree: one side's filter, both sides joined by `and` ("split"), or a constant truth
 * (from constant attributes: `emails[type eq "work"]`).
 */
type Part =
  | { side: Side; filter: MongoFilter }
  | { side: "split"; user: MongoFilter; link: MongoFilter }
  | { side: "constant"; value: boolean };

const MATCH_NOTHING: MongoFilter = { _id: { $in: [] } };

export function translateFilter(input: string): TranslatedFilter {
  const part = translateNode(parseFilter(input), null);
  switch (part.side) {
    case "constant":
      return part.value ? { user: null, link: null } : { user: null, link: MATCH_NOTHING };
    case "split":
      return { user: part.user, link: part.link };
    case "user":
      return { user: part.filter, link: null };
    case "link":
      return { user: null, link: part.filter };
  }
}

function translateNode(node: FilterNode, parent: AttrPath | null): Part {
  switch (node.kind) {
    case "and":
    case "or":
      return combine(node.kind, translateNode(node.left, parent), translateNode(node.right, parent));
    case "not": {
      const inner = translateNode(node.filter, parent);
      if (inner.side === "constant") return { side: "constant", value: !inner.value };
      if (inner.side === "split") throw mixed();
      return { side: inner.side, filter: { $nor: [inner.filter] } };
    }
    case "value-path":
      return translateNode(node.filter, node.path);
    case "present":
      return translateLeaf(resolve(node.path, parent), "pr", null);
    case "compare":
      return translateLeaf(resolve(node.path, parent), node.operator, node.value);
  }
}

function combine(kind: "and" | "or", left: Part, right: Part): Part {
  if (left.side === "constant") return combineConstant(kind, left.value, right);
  if (right.side === "constant") return combineConstant(kind, right.value, left);
  if (left.side !== "split" && left.side === right.side)
    return { side: left.side, filter: join(kind, left.filter, right.filter) };
  if (kind === "or") throw mixed();
  const halves = (part: Part, side: Side): MongoFilter | null =>
    part.side === "split" ? part[side] : part.side === side ? part.filter : null;
  const joinHalves = (side: Side): MongoFilter => {
    const [a, b] = [halves(left, side), halves(right, side)];
    return a && b ? join("and", a, b) : (a ?? b)!;
  };
  return { side: "split", user: joinHalves("user"), link: joinHalves("link") };
}

/** `x and true` is x, `x and false` is false; `x or true` is true, `x or false` is x. */
function combineConstant(kind: "and" | "or", value: boolean, other: Part): Part {
  const decides = kind === "and" ? !value : value;
  return decides ? { side: "constant", value } : other;
}

function join(kind: "and" | "or", a: MongoFilter, b: MongoFilter): MongoFilter {
  const key = kind === "and" ? "$and" : "$or";
  const flatten = (f: MongoFilter) =>
    Object.keys(f).length === 1 && Array.isArray(f[key]) ? (f[key] as MongoFilter[]) : [f];
  return { [key]: [...flatten(a), ...flatten(b)] };
}

function mixed(): ScimFilterError {
  return new ScimFilterError(
    "This filter combines account and directory attributes under 'or' or 'not', which is not supported",
  );
}

function resolve(path: AttrPath, parent: AttrPath | null): AttributeTarget {
  const attribute = parent ? parent.attribute : path.attribute;
  const schema = parent ? parent.schema : path.schema;
  if (parent && (path.schema !== null || path.sub !== null))
    throw new ScimFilterError(`Invalid attribute '${path.attribute}' inside '${parent.attribute}[…]'`);
  const sub = parent ? path.attribute : path.sub;
  const found = findAttribute(schema, attribute, sub);
  if (!found)
    throw new ScimFilterError(
      `Unknown or unfilterable attribute '${sub ? `${attribute}.${sub}` : attribute}'`,
    );
  return found;
}

function translateLeaf(target: AttributeTarget, operator: CompareOperator | "pr", value: FilterValue): Part {
  if (target.side === "constant")
    return { side: "constant", value: compareConstant(target.value, operator, value) };
  return { side: target.side, filter: { [target.field]: condition(target, operator, value) } };
}

function compareConstant(
  constant: string | boolean,
  operator: CompareOperator | "pr",
  value: FilterValue,
): boolean {
  if (operator === "pr") return true;
  if (typeof constant === "boolean") {
    if (typeof value !== "boolean" || (operator !== "eq" && operator !== "ne"))
      throw new ScimFilterError(
        `'${operator}' with ${JSON.stringify(value)} does not apply to a boolean attribute`,
      );
    return operator === "eq" ? value === constant : value !== constant;
  }
  if (typeof value !== "string")
    throw new ScimFilterError(`A string value is expected, not ${JSON.stringify(value)}`);
  return compareStrings(constant.toLowerCase(), operator, value.toLowerCase());
}

/** A string comparison of RFC 7644 §3.4.2.2 on values already in the case they compare in. */
export function compareStrings(a: string, operator: CompareOperator, b: string): boolean {
  const results: Record<CompareOperator, boolean> = {
    eq: a === b,
    ne: a !== b,
    co: a.includes(b),
    sw: a.startsWith(b),
    ew: a.endsWith(b),
    gt: a > b,
    ge: a >= b,
    lt: a < b,
    le: a <= b,
  };
  return results[operator];
}

const PRESENT = { $exists: true, $nin: [null, ""] };

function condition(target: StoredAttribute, operator: CompareOperator | "pr", value: FilterValue): unknown {
  if (operator === "pr") return target.type === "string" ? PRESENT : { $exists: true, $ne: null };
  if (value === null) {
    // RFC 7644 §3.4.2.2: a null value compares as "not present".
    if (operator === "eq") return { $in: [null, ""] };
    if (operator === "ne") return PRESENT;
    throw new ScimFilterError(`'${operator}' cannot compare with null`);
  }
  switch (target.type) {
    case "boolean":
      if (typeof value !== "boolean" || (operator !== "eq" && operator !== "ne"))
        throw new ScimFilterError(
          `'${target.field === "active" ? "active" : target.field}' takes 'eq' or 'ne' with true or false`,
        );
      return operator === "eq" ? value : { $ne: value };
    case "id":
      if (typeof value !== "string" || (operator !== "eq" && operator !== "ne"))
        throw new ScimFilterError("'id' takes 'eq' or 'ne' with a string");
      return idCondition(operator, value);
    case "date":
      return { [`$${rangeOperator(operator)}`]: toDate(value) };
    case "string":
      if (typeof value !== "string")
        throw new ScimFilterError(`A string value is expected, not ${JSON.stringify(value)}`);
      return stringCondition(target, operator, value);
  }
}

function idCondition(operator: "eq" | "ne", value: string): unknown {
  const id = ObjectId.isValid(value) && /^[0-9a-f]{24}$/i.test(value) ? new ObjectId(value) : null;
  if (operator === "eq") return id ?? { $in: [] };
  return id ? { $ne: id } : { $exists: true };
}

function rangeOperator(operator: CompareOperator): "eq" | "ne" | "gt" | "gte" | "lt" | "lte" {
  const map: Partial<Record<CompareOperator, "eq" | "ne" | "gt" | "gte" | "lt" | "lte">> = {
    eq: "eq",
    ne: "ne",
    gt: "gt",
    ge: "gte",
    lt: "lt",
    le: "lte",
  };
  const found = map[operator];
  if (!found) throw new ScimFilterError(`'${operator}' does not apply to a date`);
  return found;
}

function toDate(value: FilterValue): Date {
  // RFC 7643 §2.3.5: xsd:dateTime, e.g. 2026-11-29T10:00:00Z.
  if (
    typeof value === "string" &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)
  ) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new ScimFilterError(`A date is expected (e.g. "2026-11-29T10:00:00Z"), not ${JSON.stringify(value)}`);
}

function stringCondition(target: StoredAttribute, operator: CompareOperator, raw: string): unknown {
  const exact = target.caseExact === true || target.lowerCased === true;
  const value = target.lowerCased ? raw.toLowerCase() : raw;
  const options = exact ? {} : { $options: "i" };
  const pattern = (source: string) => ({ $regex: source, ...options });
  const literal = escapeRegex(value);
  switch (operator) {
    case "eq":
      return exact ? value : pattern(`^${literal}$`);
    case "ne":
      return exact ? { $ne: value } : { $not: pattern(`^${literal}$`) };
    case "co":
      return pattern(literal);
    case "sw":
      return pattern(`^${literal}`);
    case "ew":
      return pattern(`${literal}$`);
    default:
      return { [`$${rangeOperator(operator)}`]: value };
  }
}
