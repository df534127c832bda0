import fc from "fast-check";

/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document (which the contracts' zod
 * schemas generate): mostly values of the documented shape — so inputs get past validation and reach
 * the handlers — mixed with values of the wrong type, missing required fields and unknown fields.
 * Strings come partly from `seeds` (ids, emails and tokens that exist in the database), so lookups
 * hit real rows as well as missing ones.
 */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  additionalProperties?: boolean | JsonSchema;
};

export interface ArbitraryContext {
  components: Record<string, JsonSchema>;
  /** Existing values to reuse in strings (ids, emails, slugs, tokens). */
  seeds: () => string[];
}

const DEPTH_LIMIT = 4;

const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.constant(""),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);

export function arbitraryFor(
  schema: JsonSchema,
  context: ArbitraryContext,
  depth = 0,
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: shaped(schema, context, depth) },
    { weight: 1, arbitrary: garbage },
  );
}

function resolve(schema: JsonSchema, context: ArbitraryContext): JsonSchema {
  let current = schema;
  for (let i = 0; i < 10 && current.$ref; i++) {
    const name = current.$ref.split("/").at(-1) ?? "";
    current = context.components[name] ?? {};
  }
  return current;
}

function shaped(input: JsonSchema, context: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  const schema = resolve(input, context);
  if (depth > DEPTH_LIMIT) return garbage;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0)
    return fc.oneof(...variants.map((variant) => shaped(variant, context, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) return shaped(schema.allOf[0]!, context, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1)
    return fc.oneof(...types.map((type) => shaped({ ...schema, type }, context, depth + 1)));
  switch (types[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e9, noNaN: true });
    case "array":
      return fc.array(schema.items ? shaped(schema.items, context, depth + 1) : garbage, { maxLength: 3 });
    case "object":
      return objectOf(schema, context, depth);
    case "string":
      return stringOf(schema, context);
    default:
      return garbage;
  }
}

function objectOf(schema: JsonSchema, context: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const fields = properties.map(([name, property]) =>
    fc
      .tuple(
        // Required fields are nearly always there; optional ones half of the time.
        fc.integer({ min: 0, max: 9 }),
        arbitraryFor(property, context, depth + 1),
      )
      .map(([roll, value]) => ((required.has(name) ? roll > 0 : roll > 4) ? [[name, value]] : [])),
  );
  const extra = fc.oneof(
    { weight: 9, arbitrary: fc.constant([] as [string, unknown][]) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), garbage).map((pair) => [pair]),
    },
  );
  return fc
    .tuple(fc.tuple(...fields), extra)
    .map(([chosen, more]) => Object.fromEntries([...chosen.flat(), ...more] as [string, unknown][]));
}

function stringOf(schema: JsonSchema, context: ArbitraryContext): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 64, 256);
  const plain =
    schema.format === "email"
      ? fc.emailAddress()
      : schema.format === "uri"
        ? fc.webUrl()
        : schema.format === "date-time"
          ? fc.date({ noInvalidDate: true }).map((date) => date.toISOString())
          : fc.string({ minLength: min, maxLength: Math.max(min, max) });
  const hex = fc.stringMatching(/^[0-9a-f]{24}$/);
  const seeded = fc.integer({ min: 0, max: 1_000 }).map((index) => {
    const seeds = context.seeds();
    return seeds.length > 0 ? seeds[index % seeds.length]! : "";
  });
  return fc.oneof(
    { weight: 4, arbitrary: plain },
    { weight: 2, arbitrary: seeded },
    { weight: 1, arbitrary: hex },
  );
}
