import { z } from "zod";
import * as adminModels from "../contracts/admin-models.ts";
import { jsonValueField } from "../contracts/api-key-fields.ts";
import * as apiKeyModels from "../contracts/api-key-models.ts";
import * as models from "../contracts/models.ts";
import * as organizationModels from "../contracts/organization-models.ts";
import * as socialModels from "../contracts/social-models.ts";
import type { JsonSchema } from "./json-schema.ts";

/**
 * The named components of the API document: every `…Schema` export of the contracts' model modules,
 * named after its interface (`userSchema` → `User`), so operations answer `$ref`s that generators
 * turn into named types. A model module added to contracts/ is added to this list.
 */
const MODEL_MODULES: readonly Record<string, unknown>[] = [
  models,
  adminModels,
  apiKeyModels,
  organizationModels,
  socialModels,
];

/**
 * Any JSON value, said without recursion: an array or object holds JSON values by definition, so
 * `{}` for their members loses nothing, while zod's self-referencing definition makes
 * openapi-typescript write a type alias that refers to itself (TS2502 under `tsc --strict`).
 */
export const JSON_VALUE_SCHEMA: JsonSchema = {
  description: "Any JSON value.",
  anyOf: [
    { type: "string" },
    { type: "number" },
    { type: "boolean" },
    { type: "null" },
    { type: "array", items: {} },
    { type: "object", additionalProperties: {} },
  ],
};

export interface Models {
  /** zod moves a schema registered here into `$defs` under its id, and refers to it there. */
  registry: z.core.$ZodRegistry<{ id: string }>;
  names: ReadonlySet<string>;
}

/** The model schemas by component name (one registry per document: nothing shared between instances). */
export function createModels(): Models {
  const registry = z.registry<{ id: string }>();
  const names = new Set<string>();
  const add = (schema: z.ZodType, id: string) => {
    registry.add(schema, { id });
    names.add(id);
  };
  for (const module of MODEL_MODULES)
    for (const [exportName, value] of Object.entries(module))
      if (exportName.endsWith("Schema") && value instanceof z.ZodType)
        add(value, exportName[0]!.toUpperCase() + exportName.slice(1, -"Schema".length));
  add(jsonValueField, "JsonValue");
  return { registry, names };
}
