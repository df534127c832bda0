/** What the generator reads of a zod 4 schema: its definition, without depending on zod's types. */
export interface SchemaNode {
  _zod: {
    def: {
      type: string;
      innerType?: SchemaNode;
      in?: SchemaNode;
      element?: SchemaNode;
      options?: SchemaNode[];
      shape?: Record<string, SchemaNode>;
      entries?: Record<string, string | number>;
      values?: unknown[];
      valueType?: SchemaNode;
      defaultValue?: unknown;
    };
  };
}

const WRAPPERS = new Set(["optional", "default", "prefault", "nonoptional", "readonly", "catch"]);

/** Through optional/default/prefault wrappers and pipes (a transform's input) to the schema a caller fills. */
export function unwrapSchema(schema: SchemaNode): SchemaNode {
  let current = schema;
  for (;;) {
    const { def }: SchemaNode["_zod"] = current._zod;
    const next = WRAPPERS.has(def.type) ? def.innerType : def.type === "pipe" ? def.in : undefined;
    if (!next) return current;
    current = next;
  }
}

/** Whether a caller may leave the field out. */
export function isOptionalSchema(schema: SchemaNode): boolean {
  let current: SchemaNode | undefined = schema;
  while (current) {
    const { def }: SchemaNode["_zod"] = current._zod;
    if (def.type === "optional" || def.type === "default" || def.type === "prefault") return true;
    current = def.type === "pipe" ? def.in : def.type === "nullable" ? def.innerType : undefined;
  }
  return false;
}

/** The value a `.default(…)` gives, looked for through wrappers; undefined when there is none. */
export function findDefault(schema: SchemaNode): { value: unknown } | undefined {
  let current: SchemaNode | undefined = schema;
  while (current) {
    const { def }: SchemaNode["_zod"] = current._zod;
    if (def.type === "default") return { value: def.defaultValue };
    current = WRAPPERS.has(def.type) ? def.innerType : def.type === "pipe" ? def.in : undefined;
  }
  return undefined;
}

/** A short type text for the reference: `string`, `"a" | "b"`, `string[]`, `object`. */
export function describeSchema(schema: SchemaNode): string {
  const node = unwrapSchema(schema);
  const { def } = node._zod;
  switch (def.type) {
    case "nullable":
      return `${describeSchema(def.innerType!)} | null`;
    case "enum":
      return Object.values(def.entries ?? {})
        .map((value) => JSON.stringify(value))
        .join(" | ");
    case "literal":
      return (def.values ?? []).map((value) => JSON.stringify(value)).join(" | ");
    case "array":
      return `${wrapUnion(describeSchema(def.element!))}[]`;
    case "union":
      return [...new Set((def.options ?? []).map(describeSchema))].join(" | ");
    case "record":
    case "object":
      return "object";
    case "custom":
      return "function";
    default:
      return def.type;
  }
}

const wrapUnion = (text: string) => (text.includes(" | ") ? `(${text})` : text);

/** `name` (string), `image?` (string | null): the fields of an object schema, one caller's view. */
export function describeFields(schema: SchemaNode | undefined): string | null {
  if (!schema) return null;
  const shape = unwrapSchema(schema)._zod.def.shape;
  if (!shape) return describeSchema(schema);
  const fields = Object.entries(shape).map(
    ([name, field]) => `\`${name}${isOptionalSchema(field) ? "?" : ""}\` (${describeSchema(field)})`,
  );
  return fields.length > 0 ? fields.join(", ") : null;
}
