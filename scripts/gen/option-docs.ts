import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";
import { optionsSchema } from "../../packages/auth-core/src/config/options.ts";
import {
  describeSchema,
  findDefault,
  isOptionalSchema,
  type SchemaNode,
  unwrapSchema,
} from "./describe-schema.ts";
import { ROOT } from "./sources.ts";

const CONFIG = `${ROOT}packages/auth-core/src/config/`;

/** A JSDoc comment: its text on one line, and its `@default` when it has one. */
interface OptionDoc {
  text: string;
  default: string | null;
}

/** One `createAuth` option, as docs/reference.md lists it. */
interface OptionEntry {
  path: string;
  type: string;
  /** The default's text, "optional" without one, "required" for an option a caller must give. */
  default: string;
  text: string;
}

/** Per schema constant (`adminOptionsSchema`), the JSDoc of its properties and the constants they name. */
interface ConstantDocs {
  docs: Map<string, OptionDoc>;
  refs: Map<string, string>;
}

function readJsDoc(node: ts.Node, source: string): OptionDoc | null {
  const ranges = ts.getLeadingCommentRanges(source, node.getFullStart()) ?? [];
  const comment = ranges
    .map((range) => source.slice(range.pos, range.end))
    .findLast((text) => text.startsWith("/**"));
  if (!comment) return null;
  const body = comment
    .replace(/^\/\*\*|\*\/$/g, "")
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, "").trim())
    .join(" ")
    .trim();
  const at = body.indexOf("@default");
  return {
    text: (at < 0 ? body : body.slice(0, at)).trim(),
    default: at < 0 ? null : `default ${body.slice(at + "@default".length).trim()}`,
  };
}

/** The identifier at the root of `x.optional().default(…)`, `z.array(x)`; null for anything else. */
function baseIdentifier(node: ts.Expression): string | null {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isCallExpression(node)) {
    if (ts.isPropertyAccessExpression(node.expression)) {
      const inner = node.expression.expression;
      if (ts.isIdentifier(inner) && inner.text === "z") {
        const [first] = node.arguments;
        return first ? baseIdentifier(first) : null;
      }
      return baseIdentifier(inner);
    }
  }
  return null;
}

function readConstants(): Map<string, ConstantDocs> {
  const constants = new Map<string, ConstantDocs>();
  for (const name of readdirSync(CONFIG).filter(
    (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
  )) {
    const source = readFileSync(`${CONFIG}${name}`, "utf8");
    const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, constant: ConstantDocs | null, chain: string[]): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const own: ConstantDocs = { docs: new Map(), refs: new Map() };
        constants.set(node.name.text, own);
        ts.forEachChild(node.initializer, (child) => visit(child, own, []));
        return;
      }
      if (
        constant &&
        ts.isPropertyAssignment(node) &&
        (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))
      ) {
        const path = [...chain, node.name.text];
        const doc = readJsDoc(node, source);
        if (doc) constant.docs.set(path.join("."), doc);
        const ref = baseIdentifier(node.initializer);
        if (ref) constant.refs.set(path.join("."), ref);
        ts.forEachChild(node.initializer, (child) => visit(child, constant, path));
        return;
      }
      ts.forEachChild(node, (child) => visit(child, constant, chain));
    };
    visit(file, null, []);
  }
  return constants;
}

/** Option path → JSDoc, following the schema constants that options.ts names. */
function collectOptionDocs(): Map<string, OptionDoc> {
  const constants = readConstants();
  const found = new Map<string, OptionDoc>();
  const walk = (name: string, prefix: string, seen: Set<string>) => {
    const constant = constants.get(name);
    if (!constant || seen.has(name)) return;
    for (const [path, doc] of constant.docs) if (!found.has(prefix + path)) found.set(prefix + path, doc);
    for (const [path, ref] of constant.refs) walk(ref, `${prefix}${path}.`, new Set([...seen, name]));
  };
  walk("optionsSchema", "", new Set());
  walk("providerOptionsSchema", "socialProviders.<id>.", new Set());
  walk("genericProviderOptionsSchema", "genericOAuth[].", new Set());
  return found;
}

const shapeOf = (schema: SchemaNode) => unwrapSchema(schema)._zod.def.shape ?? {};

function formatDefault(schema: SchemaNode): string | null {
  const found = findDefault(schema);
  if (!found || typeof found.value === "function") return null;
  return `default \`${JSON.stringify(found.value)}\``;
}

/**
 * Every `createAuth` option, in the schema's order: `session.cookieCache.maxAge`; a built-in
 * provider's options once as `socialProviders.<id>.clientId`; a generic provider's own ones as
 * `genericOAuth[].providerId`.
 */
export function listOptions(): OptionEntry[] {
  const docs = collectOptionDocs();
  const entries: OptionEntry[] = [];
  const add = (path: string, schema: SchemaNode) => {
    const doc = docs.get(path);
    entries.push({
      path,
      type: describeSchema(schema),
      default:
        (doc?.default ? doc.default : formatDefault(schema)) ??
        (isOptionalSchema(schema) ? "optional" : "required"),
      text: doc?.text ?? "",
    });
  };
  const providerKeys = new Set<string>();
  const walk = (prefix: string, schema: SchemaNode) => {
    for (const [key, child] of Object.entries(shapeOf(schema))) {
      if (prefix === "socialProviders.<id>.") providerKeys.add(key);
      // A generic provider shares the built-in providers' options, listed once under socialProviders.
      if (prefix === "genericOAuth[]." && providerKeys.has(key)) continue;
      const path = `${prefix}${key}`;
      if (key === "socialProviders" && prefix === "") {
        add(path, child);
        const [firstProvider] = Object.values(shapeOf(child));
        if (firstProvider) walk("socialProviders.<id>.", firstProvider);
      } else if (key === "genericOAuth" && prefix === "") {
        add(path, child);
        const element = unwrapSchema(child)._zod.def.element!;
        walk("genericOAuth[].", element);
      } else if (unwrapSchema(child)._zod.def.type === "object" && Object.keys(shapeOf(child)).length > 0) {
        walk(`${path}.`, child);
      } else add(path, child);
    }
  };
  walk("", optionsSchema as unknown as SchemaNode);
  return entries;
}
