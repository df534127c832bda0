import { ScimFilterError, type Token, tokenizeFilter } from "./tokenize.ts";

/**
 * RFC 7644 §3.4.2.2 filters as a tree, by recursive descent over tokenize.ts's tokens:
 *   filter  = and *("or" and)          (or binds loosest, §3.4.2.2 "precedence")
 *   and     = unary *("and" unary)
 *   unary   = "not" "(" filter ")" / "(" filter ")" / attrPath "[" filter "]" / attrExp
 *   attrExp = attrPath "pr" / attrPath compareOp compValue
 * Operators, keywords and attribute names are case-insensitive (§3.4.2.2): paths come out lower-cased.
 */

const COMPARE_OPERATORS = ["eq", "ne", "co", "sw", "ew", "gt", "ge", "lt", "le"] as const;
export type CompareOperator = (typeof COMPARE_OPERATORS)[number];
export type FilterValue = string | number | boolean | null;

/** An attribute path, lower-cased: `name.givenName` → { attribute: "name", sub: "givenname" }. */
export interface AttrPath {
  /** The schema URI when the path named one (`urn:…:User:userName`), lower-cased. */
  schema: string | null;
  attribute: string;
  sub: string | null;
}

export type FilterNode =
  | { kind: "and" | "or"; left: FilterNode; right: FilterNode }
  | { kind: "not"; filter: FilterNode }
  | { kind: "compare"; path: AttrPath; operator: CompareOperator; value: FilterValue }
  | { kind: "present"; path: AttrPath }
  /** `emails[type eq "work"]`: the inner filter's paths are relative to `path`'s values. */
  | { kind: "value-path"; path: AttrPath; filter: FilterNode };

/** Deeper nesting of parentheses, `not` and value paths is refused (a stack, not a grammar limit). */
const MAX_FILTER_DEPTH = 12;

const KEYWORDS = new Set(["and", "or", "not", "pr", "true", "false", "null", ...COMPARE_OPERATORS]);
const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_$-]*$/;

export function parseFilter(input: string): FilterNode {
  const parser = new Parser(tokenizeFilter(input));
  if (parser.isAtEnd()) throw new ScimFilterError("The filter is empty");
  const node = parser.parseOr(0);
  parser.expectEnd();
  return node;
}

/**
 * A PATCH operation's path (RFC 7644 §3.5.2): attrPath, or valuePath with an optional sub-attribute
 * (`emails[type eq "work"].value`). Null filter: a plain attribute path.
 */
export function parsePatchPath(input: string): {
  path: AttrPath;
  filter: FilterNode | null;
  sub: string | null;
} {
  const parser = new Parser(tokenizeFilter(input));
  const path = parser.parsePath();
  if (parser.isAtEnd()) return { path, filter: null, sub: null };
  const filter = parser.parseValueFilter(path, 0).filter;
  let sub: string | null = null;
  const next = parser.peek();
  if (next?.kind === "word" && next.text.startsWith(".")) {
    parser.next();
    sub = next.text.slice(1).toLowerCase();
    if (!ATTRIBUTE_NAME.test(sub)) throw new ScimFilterError(`Invalid sub-attribute '${next.text.slice(1)}'`);
  }
  parser.expectEnd();
  return { path, filter, sub };
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  isAtEnd(): boolean {
    return this.index >= this.tokens.length;
  }
  peek(): Token | undefined {
    return this.tokens[this.index];
  }
  next(): Token | undefined {
    return this.tokens[this.index++];
  }
  expectEnd(): void {
    const extra = this.peek();
    if (extra) throw new ScimFilterError(`Unexpected ${describe(extra)} at position ${extra.at}`);
  }

  parseOr(depth: number): FilterNode {
    let left = this.parseAnd(depth);
    while (this.isKeyword("or")) {
      this.next();
      left = { kind: "or", left, right: this.parseAnd(depth) };
    }
    return left;
  }

  private parseAnd(depth: number): FilterNode {
    let left = this.parseUnary(depth);
    while (this.isKeyword("and")) {
      this.next();
      left = { kind: "and", left, right: this.parseUnary(depth) };
    }
    return left;
  }

  private parseUnary(depth: number): FilterNode {
    if (depth >= MAX_FILTER_DEPTH)
      throw new ScimFilterError(`The filter nests deeper than ${MAX_FILTER_DEPTH} levels`);
    const token = this.peek();
    if (!token) throw new ScimFilterError("The filter ends where an expression was expected");
    if (this.isKeyword("not")) {
      this.next();
      if (this.peek()?.kind !== "(")
        throw new ScimFilterError(`'not' must be followed by '(' at position ${token.at}`);
      return { kind: "not", filter: this.parseGroup(depth + 1) };
    }
    if (token.kind === "(") return this.parseGroup(depth + 1);
    const path = this.parsePath();
    if (this.peek()?.kind === "[") return this.parseValueFilter(path, depth + 1);
    return this.parseAttrExp(path);
  }

  private parseGroup(depth: number): FilterNode {
    this.next(); // "("
    const inner = this.parseOr(depth);
    this.expect(")");
    return inner;
  }

  parseValueFilter(
    path: AttrPath,
    depth: number,
  ): { kind: "value-path"; path: AttrPath; filter: FilterNode } {
    if (path.sub !== null)
      throw new ScimFilterError(`A value filter cannot follow the sub-attribute '${path.sub}'`);
    this.expect("[");
    const filter = this.parseOr(depth);
    this.expect("]");
    if (containsValuePath(filter)) throw new ScimFilterError("Value filters cannot be nested");
    return { kind: "value-path", path, filter };
  }

  private parseAttrExp(path: AttrPath): FilterNode {
    const token = this.next();
    if (token?.kind !== "word") throw new ScimFilterError(`An operator was expected after '${show(path)}'`);
    const operator = token.text.toLowerCase();
    if (operator === "pr") return { kind: "present", path };
    if (!(COMPARE_OPERATORS as readonly string[]).includes(operator))
      throw new ScimFilterError(`Unknown operator '${token.text}' at position ${token.at}`);
    return { kind: "compare", path, operator: operator as CompareOperator, value: this.parseValue(operator) };
  }

  private parseValue(operator: string): FilterValue {
    const token = this.next();
    if (!token) throw new ScimFilterError(`A value was expected after '${operator}'`);
    if (token.kind === "string" || token.kind === "number") return token.value;
    if (token.kind === "word") {
      const word = token.text.toLowerCase();
      if (word === "true") return true;
      if (word === "false") return false;
      if (word === "null") return null;
    }
    throw new ScimFilterError(`Invalid value ${describe(token)} at position ${token.at}: quote strings`);
  }

  parsePath(): AttrPath {
    const token = this.next();
    if (token?.kind !== "word" || KEYWORDS.has(token.text.toLowerCase()))
      throw new ScimFilterError(
        token
          ? `An attribute was expected at position ${token.at}, not ${describe(token)}`
          : "An attribute was expected",
      );
    return toAttrPath(token.text, token.at);
  }

  private isKeyword(word: string): boolean {
    const token = this.peek();
    return token?.kind === "word" && token.text.toLowerCase() === word;
  }

  private expect(kind: "(" | ")" | "[" | "]"): void {
    const token = this.next();
    if (token?.kind !== kind)
      throw new ScimFilterError(
        token ? `'${kind}' expected at position ${token.at}` : `'${kind}' expected at the end`,
      );
  }
}

/** `urn:…:User:name.givenName` → schema, attribute, sub (RFC 7644 §3.10 attrPath). */
function toAttrPath(text: string, at: number): AttrPath {
  const colon = text.lastIndexOf(":");
  const schema = colon >= 0 ? text.slice(0, colon).toLowerCase() : null;
  const rest = colon >= 0 ? text.slice(colon + 1) : text;
  const parts = rest.split(".");
  if (schema !== null && !schema.startsWith("urn:"))
    throw new ScimFilterError(`Invalid schema in '${text}' at position ${at}`);
  if (parts.length > 2 || !parts.every((part) => ATTRIBUTE_NAME.test(part)))
    throw new ScimFilterError(`Invalid attribute '${text}' at position ${at}`);
  return { schema, attribute: parts[0]!.toLowerCase(), sub: parts[1]?.toLowerCase() ?? null };
}

function containsValuePath(node: FilterNode): boolean {
  if (node.kind === "value-path") return true;
  if (node.kind === "not") return containsValuePath(node.filter);
  if (node.kind === "and" || node.kind === "or")
    return containsValuePath(node.left) || containsValuePath(node.right);
  return false;
}

function show(path: AttrPath): string {
  return path.sub ? `${path.attribute}.${path.sub}` : path.attribute;
}

function describe(token: Token): string {
  if (token.kind === "word") return `'${token.text}'`;
  if (token.kind === "string") return "a string";
  if (token.kind === "number") return "a number";
  return `'${token.kind}'`;
}
