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
   * holds; text that is not a JSON object reads as null, so such a field is nullable. permissionMap:
   * resource → actions (`{ files: ["read"] }`), stored as that object. flag: a boolean stored only
   * once set (a ban, a confirmed second factor): true when the stored value is true, false otherwise
   * (absent, or anything else), so the stored document may lack it. object: stored as a nested
   * document and answered as stored — for facts whose keys the server chooses (an audit event's
   * details), never a client's. stringList: a list of strings, stored and answered as that list.
   */
  kind:
    | "objectId"
    | "string"
    | "number"
    | "boolean"
    | "date"
    | "jsonObject"
    | "object"
    | "permissionMap"
    | "stringList"
    | "flag";
  /** The only values a string field may take. */
  values?: readonly string[];
  /**
   * true: null is a value (stored and answered as null); the field is never absent. "or absent": a
   * stored document may also lack the field (rows written before it existed), read and answered as null.
   */
  nullable?: true | "or absent";
  /**
   * The API value leaves the key out when the stored document lacks the field (true), or lacks it or
   * holds null ("or null"), or lacks it or holds null, false or "" ("or empty": a flag that is off, a
   * text never chosen): a field only some rows carry, whose absence keeps the others' shape. An
   * optional flag is answered only as true.
   */
  optional?: true | "or null" | "or empty";
  /**
   * Not read from the stored document: the mapper is handed its value (a count the service works out,
   * say), and the stored document's type leaves it out. Never optional.
   */
  computed?: true;
}

export type Model = readonly ModelField[];

/** A field's API value without null: its kind's type, one of its `values`, or a string. */
export type FieldValue<F extends ModelField> = F["kind"] extends "date"
  ? Date
  : F["kind"] extends "number"
    ? number
    : F["kind"] extends "boolean"
      ? boolean
      : F["kind"] extends "flag"
        ? F["optional"] extends true | "or null" | "or empty"
          ? true
          : boolean
        : F["kind"] extends "jsonObject" | "object"
          ? Record<string, unknown>
          : F["kind"] extends "permissionMap"
            ? Record<string, string[]>
            : F["kind"] extends "stringList"
              ? string[]
              : F["values"] extends readonly (infer V)[]
                ? V
                : string;

/** `T`, or `T | null` for a nullable field. */
export type OrNull<F extends ModelField, T> = F["nullable"] extends true | "or absent" ? T | null : T;

/** An intersection of mapped types read as one object type (optional keys stay optional). */
export type Flat<T> = { [K in keyof T]: T[K] };

type Optional = NonNullable<ModelField["optional"]>;

/** The API value of a model, e.g. `{ id: string; …; createdAt: Date }`; optional fields as `key?`. */
export type ModelValue<M extends Model> = Flat<
  {
    [F in M[number] as F["optional"] extends Optional ? never : F["key"]]: OrNull<F, FieldValue<F>>;
  } & {
    [F in M[number] as F["optional"] extends Optional ? F["key"] : never]?: FieldValue<F>;
  }
>;

/** Keeps the fields' literal keys, kinds and values (the types above read them). */
export function defineModel<const M extends Model>(fields: M): M {
  return fields;
}

/**
 * A view of a model (what one audience is shown of it): the fields named, in the order named — the
 * view's key order, so a view can keep an answer's order that differs from the model's.
 */
export function pickFields<const M extends Model, const K extends M[number]["key"]>(
  model: M,
  keys: readonly K[],
): Extract<M[number], { key: K }>[] {
  return keys.map((key) => {
    const field = model.find((candidate) => candidate.key === key);
    if (!field) throw new Error(`the model has no field ${key}`);
    return field as Extract<M[number], { key: K }>;
  });
}

/** The model without the fields named (a secret left out of a view), in the model's order. */
export function omitFields<const M extends Model, const K extends M[number]["key"]>(
  model: M,
  keys: readonly K[],
): Exclude<M[number], { key: K }>[] {
  return model.filter((field) => !(keys as readonly string[]).includes(field.key)) as Exclude<
    M[number],
    { key: K }
  >[];
}

/**
 * The model with one field declared anew in its place (a view that answers null where the model
 * leaves the key out, say), so the key keeps its position.
 */
export function replaceField<const M extends Model, const F extends ModelField & { key: M[number]["key"] }>(
  model: M,
  field: F,
): (Exclude<M[number], { key: F["key"] }> | F)[] {
  return model.map((candidate) => (candidate.key === field.key ? field : candidate)) as (
    | Exclude<M[number], { key: F["key"] }>
    | F
  )[];
}

/**
 * One of the model's fields under another API key (a view that keeps an older answer's name:
 * /list-accounts' `provider` is the stored `providerId`), read from the same stored field.
 */
export function renameField<const M extends Model, const K extends M[number]["key"], const N extends string>(
  model: M,
  key: K,
  newKey: N,
): Omit<Extract<M[number], { key: K }>, "key" | "stored"> & {
  key: N;
  stored: StoredName<Extract<M[number], { key: K }>>;
} {
  const [field] = pickFields(model, [key]);
  if (!field) throw new Error(`the model has no field ${key}`);
  return { ...field, key: newKey, stored: field.stored ?? field.key } as never;
}

/** The stored document's field of a declared field: `stored`, else its key. */
export type StoredName<F extends ModelField> = F["stored"] extends string ? F["stored"] : F["key"];

const KIND_SCHEMAS = {
  objectId: () => z.string(),
  string: () => z.string(),
  number: () => z.number(),
  boolean: () => z.boolean(),
  flag: () => z.boolean(),
  date: () => z.date(),
  jsonObject: () => z.record(z.string(), z.unknown()),
  object: () => z.record(z.string(), z.unknown()),
  permissionMap: () => z.record(z.string(), z.array(z.string())),
  stringList: () => z.array(z.string()),
} satisfies Record<ModelField["kind"], () => z.ZodType>;

function fieldSchema(field: ModelField): z.ZodType {
  if (field.kind === "flag" && field.optional) return z.literal(true).optional();
  const schema = field.values ? z.enum(field.values as [string, ...string[]]) : KIND_SCHEMAS[field.kind]();
  if (field.optional) return schema.optional();
  return field.nullable ? schema.nullable() : schema;
}

/** The schema of one key of a model's API value: an optional key's is a ZodOptional, as zod infers. */
type KeySchema<T> = undefined extends T ? z.ZodOptional<z.ZodType<Exclude<T, undefined>>> : z.ZodType<T>;

/** The zod shape of a model's API value: strictObject it, or spread it into a wider answer. */
export function modelShape<M extends Model>(
  model: M,
): { [K in keyof ModelValue<M>]-?: KeySchema<ModelValue<M>[K]> } {
  return Object.fromEntries(model.map((field) => [field.key, fieldSchema(field)])) as {
    [K in keyof ModelValue<M>]-?: KeySchema<ModelValue<M>[K]>;
  };
}
