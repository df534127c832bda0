import { z } from "zod";

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as zod 4 writes it. */
export type JsonSchema = Record<string, unknown>;

/**
 * A contract schema as JSON Schema, for one side of the wire: `input` is what a request may send
 * (before transforms: query booleans as "true"/"false"), `output` what a response carries. Dates
 * are ISO 8601 strings on the wire (`Date.toJSON`), so `z.date()` is written as a date-time string;
 * what JSON Schema cannot say (a custom refinement) is left open rather than failing the document.
 * A schema in `models` is written once into `$defs` under its id and referred to from elsewhere.
 */
export function toJsonSchema(
  schema: z.ZodType,
  io: "input" | "output",
  models?: z.core.$ZodRegistry<{ id: string }>,
): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    ...(models ? { metadata: models } : {}),
    unrepresentable: "any",
    override: (context) => {
      const def = (context.zodSchema as { _zod: { def: { type: string } } })._zod.def;
      if (def.type === "date") {
        context.jsonSchema.type = "string";
        context.jsonSchema.format = "date-time";
      }
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}
