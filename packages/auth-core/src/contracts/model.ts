import { z } from "zod";

/**
 * A model declared once, as data: each field's API key, the stored document's field and its kind.
 * The API value's type and zod shape come from it here; the stored document's type, the document →
 * API mapper and the JSON writers from db/model.ts. A field added to the declaration reaches all of
 * them, in one order (the answer's key order).
 */
export interface ModelField {
  /** The API's key. */
  key: string;
  /** The stored document's field. @default key */
  stored?: string;
  /**
   * objectId: stored as an ObjectId, answered as its lower-case hex string. jsonObject: stored as JSON
   * text (so that client-chosen keys never become document field names), answered as the object it
   * holds; text that is not a JSON object reads as null, so such a field is nullable.
   */
  kind: "objectId" | "string" | "date" | "jsonObject";
  /** The only values a string field may take. */
  values?: readonly string[];
  /**
   * true: null is a value (stored and answered as null); the field is never absent. "or absent": a
   * stored document may also lack the field (rows written before it existed), read and answered as null.
   */
  nullable?: true | "or absent";
}

export type Model = readonly ModelField[];

/** A field's API value without null: a Date, one of its `values`, or a string. */
export type FieldValue<F extends ModelField> = F["kind"] extends "date"
  ? Date
  : F["kind"] extends "jsonObject"
    ? Record<string, unknown>
    : F["values"] extends readonly (infer V)[]
      ? V
      : string;

/** `T`, or `T | null` for a nullable field. */
export type OrNull<F extends ModelField, T> = F["nullable"] extends true | "or absent" ? T | null : T;

/** The API value of a model, e.g. `{ id: string; …; createdAt: Date }`. */
export type ModelValue<M extends Model> = { [F in M[number] as F["key"]]: OrNull<F, FieldValue<F>> };

/** Keeps the fields' literal keys, kinds and values (the types above read them). */
export function defineModel<const M extends Model>(fields: M): M {
  return fields;
}

function fieldSchema(field: ModelField): z.ZodType {
  const schema =
    field.kind === "date"
      ? z.date()
      : field.kind === "jsonObject"
        ? z.record(z.string(), z.unknown())
        : field.values
          ? z.enum(field.values as [string, ...string[]])
          : z.string();
  return field.nullable ? schema.nullable() : schema;
}

/** The zod shape of a model's API value: strictObject it, or spread it into a wider answer. */
export function modelShape<M extends Model>(
  model: M,
): { [K in keyof ModelValue<M>]: z.ZodType<ModelValue<M>[K]> } {
  return Object.fromEntries(model.map((field) => [field.key, fieldSchema(field)])) as {
    [K in keyof ModelValue<M>]: z.ZodType<ModelValue<M>[K]>;
  };
}
