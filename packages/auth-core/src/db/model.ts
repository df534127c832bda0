import type { ObjectId } from "mongodb";
import type { FieldValue, Model, ModelField, ModelValue, OrNull } from "../contracts/model.ts";
import { jsonDate } from "../http/json-text.ts";
import { type JsonShape, jsonShape } from "./bson-json.ts";
import { TYPE_DATE, TYPE_OBJECT_ID, TYPE_STRING } from "./raw-page.ts";

/**
 * The server's side of a model declared once (contracts/model.ts): the stored document's type, the
 * mapper to the API value, and the two JSON writers (from a decoded document, and the BSON field
 * table of bson-json.ts that copies a listing's bytes) — each in the declaration's key order, so
 * that every writer answers byte for byte what `JSON.stringify(toModelValue(…))` answers.
 */

type StoredKey<F extends ModelField> = F["stored"] extends string ? F["stored"] : F["key"];
type StoredValue<F extends ModelField> = F["kind"] extends "objectId"
  ? ObjectId
  : F["kind"] extends "jsonObject"
    ? string
    : FieldValue<F>;

/** The stored document of a model: ObjectIds for `objectId` fields, under their stored names. */
export type ModelDoc<M extends Model> = {
  [F in M[number] as StoredKey<F>]: OrNull<F, StoredValue<F>>;
};

const storedName = (field: ModelField) => field.stored ?? field.key;

/** A field's stored value; an absent "or absent" field reads as null. */
function readStored(field: ModelField, stored: Record<string, unknown>): unknown {
  const raw = stored[storedName(field)];
  return raw === undefined && field.nullable === "or absent" ? null : raw;
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

/** A field's API value from its stored value. */
function toFieldValue(field: ModelField, raw: unknown): unknown {
  if (field.kind === "jsonObject") return readJsonObject(raw);
  return field.kind === "objectId" && raw !== null ? (raw as ObjectId).toHexString() : raw;
}

/** The API value of a stored document: ObjectIds as hex strings, the rest as stored. */
export function toModelValue<M extends Model>(model: M, doc: ModelDoc<M>): ModelValue<M> {
  const stored = doc as Record<string, unknown>;
  const value: Record<string, unknown> = {};
  for (const field of model) {
    value[field.key] = toFieldValue(field, readStored(field, stored));
  }
  return value as ModelValue<M>;
}

/** `JSON.stringify(toModelValue(model, doc))`, written directly. */
export function writeModelJson<M extends Model>(model: M, doc: ModelDoc<M>): string {
  const stored = doc as Record<string, unknown>;
  let text = "{";
  for (let index = 0; index < model.length; index++) {
    const field = model[index] as ModelField;
    const raw = readStored(field, stored);
    text += `${index > 0 ? "," : ""}${JSON.stringify(field.key)}:`;
    if (raw === null) text += "null";
    else if (field.kind === "objectId") text += `"${(raw as ObjectId).toHexString()}"`;
    else if (field.kind === "date") text += jsonDate(raw as Date);
    else if (field.kind === "jsonObject") text += JSON.stringify(readJsonObject(raw));
    else text += JSON.stringify(raw);
  }
  return `${text}}`;
}

const BSON_TYPES = { objectId: TYPE_OBJECT_ID, string: TYPE_STRING, date: TYPE_DATE } as const;

/** BSON bytes are copied as they are: a jsonObject field's text must be parsed, so it has no table entry. */
function bsonTypeOf(field: ModelField) {
  if (field.kind === "jsonObject")
    throw new Error(`${field.key}: a jsonObject field is not copied from BSON bytes`);
  return BSON_TYPES[field.kind];
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
