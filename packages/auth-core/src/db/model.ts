import type {
  FieldValue,
  Flat,
  Model,
  ModelField,
  ModelValue,
  OrNull,
  StoredName,
} from "../contracts/model.ts";
import { jsonDate } from "../http/json-text.ts";
import { type JsonShape, jsonShape } from "./bson-json.ts";
import { ObjectId } from "./ids.ts";
import { TYPE_DATE, TYPE_OBJECT_ID, TYPE_STRING } from "./raw-page.ts";

/**
 * The server's side of a model declared once (contracts/model.ts): the stored document's type, the
 * mapper to the API value, and the two JSON writers (from a decoded document, and the BSON field
 * table of bson-json.ts that copies a listing's bytes) — each in the declaration's key order, so
 * that every writer answers byte for byte what `JSON.stringify(toModelValue(…))` answers — and the
 * way back from that JSON to the stored fields (restoreModelDoc, for the session cookie cache).
 */

type StoredValue<F extends ModelField> = F["kind"] extends "objectId"
  ? ObjectId
  : F["kind"] extends "jsonObject"
    ? string
    : F["kind"] extends "flag"
      ? boolean
      : FieldValue<F>;
/** A flag is stored only once set, so a stored document may lack it too. */
type IsOptional<F extends ModelField> =
  F["optional"] extends NonNullable<ModelField["optional"]> ? true : F["kind"] extends "flag" ? true : false;

/**
 * The stored document of a model: ObjectIds for `objectId` fields, under their stored names; an
 * optional field may be absent (or null, "or null"); computed fields are not stored.
 */
export type ModelDoc<M extends Model> = Flat<
  {
    [F in M[number] as F["computed"] extends true
      ? never
      : IsOptional<F> extends true
        ? never
        : StoredName<F>]: OrNull<F, StoredValue<F>>;
  } & {
    [F in M[number] as IsOptional<F> extends true ? StoredName<F> : never]?: F["optional"] extends
      | "or null"
      | "or empty"
      ? StoredValue<F> | null
      : StoredValue<F>;
  }
>;

type StoredKeyOf<F> = F extends ModelField ? StoredName<F> : never;

/** The stored names of the fields a stored document may lack and that read as null ("or absent"). */
type AbsentKey<M extends Model> = StoredKeyOf<Extract<M[number], { nullable: "or absent" }>>;

/**
 * A stored document as the mappers read it: ModelDoc, where an "or absent" field may also be
 * missing — so a view that answers null for a field its model leaves out (admin-models.ts
 * adminSessionModel) maps the model's own documents.
 */
type ReadableDoc<M extends Model> = Omit<ModelDoc<M>, AbsentKey<M>> &
  Partial<Pick<ModelDoc<M>, AbsentKey<M> & keyof ModelDoc<M>>>;

/** The values of a model's computed fields, which its mapper is handed. */
type ComputedValues<M extends Model> = {
  [F in M[number] as F["computed"] extends true ? F["key"] : never]: OrNull<F, FieldValue<F>>;
};

/** The mappers' last argument: the computed values, for a model that has computed fields. */
type ComputedArgument<M extends Model> = [keyof ComputedValues<M>] extends [never]
  ? []
  : [computed: ComputedValues<M>];

const storedName = (field: ModelField) => field.stored ?? field.key;

/** Marks a field the API value leaves out (an optional field with nothing stored). */
const LEFT_OUT = Symbol("left out");

/** A field's raw value for the API from the stored document (or the computed values), or LEFT_OUT. */
type RawReader = (stored: Record<string, unknown>, computed: Record<string, unknown> | undefined) => unknown;

/**
 * The field's reader: the computed value, or the stored one (an absent "or absent" field reads as
 * null; a flag as true or false), or LEFT_OUT. Chosen once per field, not per read.
 */
function rawReader(field: ModelField): RawReader {
  const name = storedName(field);
  if (field.computed) return (_stored, computed) => computed?.[field.key];
  if (field.kind === "flag")
    return field.optional
      ? (stored) => (stored[name] === true ? true : LEFT_OUT)
      : (stored) => stored[name] === true;
  if (field.optional === "or empty")
    return (stored) => {
      const raw = stored[name];
      return raw === undefined || raw === null || raw === "" || raw === false ? LEFT_OUT : raw;
    };
  if (field.optional === "or null")
    return (stored) => {
      const raw = stored[name];
      return raw === undefined || raw === null ? LEFT_OUT : raw;
    };
  if (field.optional) return (stored) => (stored[name] === undefined ? LEFT_OUT : stored[name]);
  if (field.nullable === "or absent") return (stored) => (stored[name] === undefined ? null : stored[name]);
  return (stored) => stored[name];
}

/** A jsonObject field's value: the object its stored text holds, or null (not text, or not an object). */
function readJsonObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== "string") return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A field's API value from its stored value (not null). */
type ValueReader = (raw: unknown) => unknown;

const asStored: ValueReader = (raw) => raw;

const VALUE_READERS: Record<ModelField["kind"], ValueReader> = {
  objectId: (raw) => (raw as ObjectId).toHexString(),
  jsonObject: readJsonObject,
  object: asStored,
  string: asStored,
  number: asStored,
  boolean: asStored,
  date: asStored,
  flag: asStored,
  permissionMap: asStored,
  stringList: asStored,
};

/** The API value of a stored document: ObjectIds as hex strings, the rest as stored. */
export function toModelValue<M extends Model>(
  model: M,
  doc: ReadableDoc<M>,
  ...computed: ComputedArgument<M>
): ModelValue<M>;
// A plain optional parameter below the typed signature: no rest array per call (a session's hot path).
export function toModelValue(model: Model, doc: object, computed?: Record<string, unknown>): unknown {
  const stored = doc as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  for (const step of stepsOf(model)) {
    const raw = step.read(stored, computed);
    if (raw === LEFT_OUT) continue;
    // A jsonObject field's absent text reads as null too.
    value[step.field.key] = raw === null || raw === undefined ? step.nullValue(raw) : step.value(raw);
  }
  return value;
}

/** `JSON.stringify(toModelValue(model, doc, …))`, written directly. */
export function writeModelJson<M extends Model>(
  model: M,
  doc: ReadableDoc<M>,
  ...computed: ComputedArgument<M>
): string;
export function writeModelJson(model: Model, doc: object, computed?: Record<string, unknown>): string {
  const stored = doc as Record<string, unknown>;
  let text = "";
  for (const step of stepsOf(model)) {
    const member = step.json(stored, computed);
    if (member !== undefined) text += text === "" ? `{${member}` : `,${member}`;
  }
  return text === "" ? "{}" : `${text}}`;
}

/**
 * The field's `"key":value` text, or undefined when the value leaves the key out (LEFT_OUT, or a
 * field missing from a document stored by hand, which JSON.stringify leaves out too).
 */
type MemberWriter = (
  stored: Record<string, unknown>,
  computed: Record<string, unknown> | undefined,
) => string | undefined;

function memberWriter(field: ModelField, read: RawReader): MemberWriter {
  const key = `${JSON.stringify(field.key)}:`;
  const write = VALUE_WRITERS[field.kind];
  const absent = field.kind === "jsonObject" ? `${key}null` : undefined;
  return (stored, computed) => {
    const raw = read(stored, computed);
    if (raw === LEFT_OUT) return undefined;
    if (raw === null) return `${key}null`;
    return raw === undefined ? absent : key + write(raw);
  };
}

/** A field's JSON value from its raw value (not null). */
type ValueWriter = (raw: unknown) => string;

const writeJson: ValueWriter = (raw) => JSON.stringify(raw);

const VALUE_WRITERS: Record<ModelField["kind"], ValueWriter> = {
  objectId: (raw) => `"${(raw as ObjectId).toHexString()}"`,
  date: (raw) => jsonDate(raw as Date),
  jsonObject: (raw) => JSON.stringify(readJsonObject(raw)),
  flag: (raw) => (raw === true ? "true" : "false"),
  string: writeJson,
  number: writeJson,
  boolean: writeJson,
  object: writeJson,
  permissionMap: writeJson,
  stringList: writeJson,
};

/**
 * Each field's `"key":` and value writer, worked out once per model: a page of list-users writes
 * 100 users, and quoting each key on every call cost more than the values.
 */
interface FieldStep {
  field: ModelField;
  read: RawReader;
  value: ValueReader;
  nullValue: ValueReader;
  json: MemberWriter;
}

const STEPS = new WeakMap<Model, readonly FieldStep[]>();

function stepsOf(model: Model): readonly FieldStep[] {
  let steps = STEPS.get(model);
  if (!steps) {
    steps = model.map((field) => {
      const read = rawReader(field);
      return {
        field,
        read,
        value: VALUE_READERS[field.kind],
        nullValue: field.kind === "jsonObject" ? readJsonObject : asStored,
        json: memberWriter(field, read),
      };
    });
    STEPS.set(model, steps);
  }
  return steps;
}

/** A model's stored fields by their stored names (computed fields are not stored). */
export function fieldsByStoredName(model: Model): ReadonlyMap<string, ModelField> {
  return new Map(model.filter((field) => !field.computed).map((field) => [storedName(field), field]));
}

/**
 * The stored fields of an API value read back from its JSON (dates as ISO text): toModelValue undone
 * for the keys the value has. Computed fields are left out, and so is an optional field the value
 * lacks (whether it was stored as null or absent is not in the JSON). A jsonObject field's text is
 * the object's JSON, so text that was not an object comes back as null.
 */
export function restoreModelDoc<M extends Model>(
  model: M,
  value: Record<string, unknown>,
): Partial<ModelDoc<M>> {
  const doc: Record<string, unknown> = {};
  for (const field of model) {
    const given = value[field.key];
    if (field.computed || given === undefined) continue;
    doc[storedName(field)] =
      given === null
        ? null
        : field.kind === "objectId"
          ? ObjectId.createFromHexString(given as string)
          : field.kind === "date"
            ? new Date(given as string)
            : field.kind === "jsonObject"
              ? JSON.stringify(given)
              : given;
  }
  return doc as Partial<ModelDoc<M>>;
}

const BSON_TYPES = { objectId: TYPE_OBJECT_ID, string: TYPE_STRING, date: TYPE_DATE } as const;

/**
 * BSON bytes are copied as they are, for the kinds listings copy: a jsonObject field's text must be
 * parsed, and no listing copies the other kinds, optional or computed fields, so they have no entry.
 */
function bsonTypeOf(field: ModelField) {
  const type = BSON_TYPES[field.kind as keyof typeof BSON_TYPES];
  if (type === undefined || field.optional || field.computed)
    throw new Error(`${field.key}: a ${field.kind} field is not copied from BSON bytes`);
  return type;
}

/** The BSON field table (bson-json.ts) that copies a model's JSON from a listing's bytes. */
export function modelJsonShape(model: Model): JsonShape {
  return jsonShape(
    model.map((field) => ({
      field: storedName(field),
      key: field.key,
      type: bsonTypeOf(field),
      ...(field.nullable
        ? { orNull: field.nullable === true ? ("null" as const) : ("null or absent" as const) }
        : {}),
    })),
  );
}
