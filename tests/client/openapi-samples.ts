/**
 * A request the document says is valid, for calling every operation without credentials: each
 * required field gets the smallest value its schema admits (a pattern's field a value written for
 * it). Only what the API's schemas use is covered; anything else fails loudly.
 */
type Schema = Record<string, unknown>;

interface SampleDocument {
  components: { schemas: Record<string, Schema> };
}

/** Fields whose pattern a generic value cannot meet, by name. */
const PATTERNED: Record<string, string> = {
  prefix: "pre",
  slug: "acme",
  code: "123456",
};

export function sampleOf(document: SampleDocument, schema: Schema, name = ""): unknown {
  if (typeof schema.$ref === "string")
    return sampleOf(document, document.components.schemas[schema.$ref.split("/").pop()!]!, name);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return sampleOf(document, variants.find((v) => v.type !== "null") ?? variants[0]!, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([key]) => required.has(key))
          .map(([key, value]) => [key, sampleOf(document, value, key)]),
      );
    }
    case "array":
      return Array.from({ length: Number(schema.minItems ?? 0) }, () =>
        sampleOf(document, (schema.items ?? {}) as Schema, name),
      );
    case "string":
      return stringSample(schema, name);
    case "integer":
    case "number":
      return Math.max(Number(schema.minimum ?? 1), Number(schema.exclusiveMinimum ?? 0) + 1);
    case "boolean":
      return true;
    default:
      return "x";
  }
}

function stringSample(schema: Schema, name: string): string {
  if (schema.format === "email" || /email$/i.test(name)) return "nobody@example.com";
  if (schema.format === "uri" || schema.format === "url") return "http://127.0.0.1/";
  if (name in PATTERNED) return PATTERNED[name]!;
  if (typeof schema.pattern === "string") {
    const candidates = ["aaaaaaaaaaaaaaaaaaaaaaaa", "123456", "abc", "/"];
    const fit = candidates.find((c) => new RegExp(schema.pattern as string).test(c));
    if (fit) return fit;
    throw new Error(`no sample for ${name} /${schema.pattern}/`);
  }
  const min = Number(schema.minLength ?? 1);
  return "a".repeat(Math.max(min, /id$/i.test(name) ? 24 : 8)).slice(0, Number(schema.maxLength ?? 64));
}
