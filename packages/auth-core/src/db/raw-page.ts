import { BSON, type Collection, type Document } from "mongodb";
import { findPageCommand, type PageQuery, readCommand } from "./find-page.ts";

/**
 * A page read as BSON bytes (`findRawPage`): the documents are never decoded unless asked for
 * (`decode`); `BsonFields` finds the fields an answer needs and `BsonJsonWriter` (bson-json.ts)
 * copies them into JSON text. For get-full-organization (~300 documents) decoding every document into objects and
 * then writing their JSON text was most of the server's CPU time and garbage.
 */
export class RawPage<T extends Document> {
  /** The reply's cursor document; each document of the batch lies inside it. */
  readonly bytes: Buffer;
  /** Where each document of the batch starts in `bytes`. */
  readonly starts: readonly number[];

  constructor(bytes: Buffer, starts: readonly number[]) {
    this.bytes = bytes;
    this.starts = starts;
  }

  static empty<T extends Document>(): RawPage<T> {
    return new RawPage<T>(Buffer.alloc(0), []);
  }

  get length(): number {
    return this.starts.length;
  }

  /** The document at `index`, decoded as the driver decodes a reply (its default options). */
  decode(index: number): T {
    const start = this.starts[index] as number;
    return BSON.deserialize(this.bytes.subarray(start, start + readInt32(this.bytes, start))) as T;
  }

  /** Every document, decoded (the server API's objects). */
  decodeAll(): T[] {
    return this.starts.map((_, index) => this.decode(index));
  }
}

/**
 * `findPage` (the same `find` command, one reply, no retry) with the reply's batch left as bytes.
 * Throws like `findPage` when the reply is not a cursor with a first batch.
 */
export async function findRawPage<T extends Document>(
  collection: Collection<T>,
  query: PageQuery<T>,
): Promise<RawPage<T>> {
  // `raw`: the reply's top level is decoded, every document inside it (here `cursor`) stays bytes.
  const reply = await readCommand(collection.db, findPageCommand(collection, query), { raw: true });
  const cursor = (reply as { cursor?: unknown }).cursor;
  if (!(cursor instanceof Uint8Array)) throw new TypeError("findRawPage: the reply holds no cursor");
  return rawPageOf<T>(cursor);
}

/**
 * The page of a reply's cursor document (its `firstBatch`, documents only) as BSON bytes.
 * @internal Exported for the raw-page tests of the models (raw-page.test.ts and the models' types.test.ts files).
 */
export function rawPageOf<T extends Document>(cursor: Uint8Array): RawPage<T> {
  const batch = findElement(cursor, 0, FIRST_BATCH);
  if (batch === -1 || cursor[batch] !== TYPE_ARRAY) {
    throw new TypeError("findRawPage: the cursor holds no first batch");
  }
  const starts: number[] = [];
  const arrayStart = valueAt(cursor, batch);
  const arrayEnd = arrayStart + readInt32(cursor, arrayStart) - 1;
  let at = arrayStart + 4;
  while (at < arrayEnd) {
    const type = cursor[at] as number;
    at = valueAt(cursor, at);
    if (type !== TYPE_DOCUMENT) throw new TypeError("findRawPage: a batch element is not a document");
    starts.push(at);
    at += readInt32(cursor, at);
  }
  const bytes = Buffer.isBuffer(cursor)
    ? cursor
    : Buffer.from(cursor.buffer, cursor.byteOffset, cursor.byteLength);
  return new RawPage<T>(bytes, starts);
}

export const TYPE_STRING = 0x02;
const TYPE_DOCUMENT = 0x03;
const TYPE_ARRAY = 0x04;
export const TYPE_OBJECT_ID = 0x07;
export const TYPE_DATE = 0x09;
export const TYPE_NULL = 0x0a;

const FIRST_BATCH = new TextEncoder().encode("firstBatch");

export function readInt32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] as number) |
    ((bytes[at + 1] as number) << 8) |
    ((bytes[at + 2] as number) << 16) |
    ((bytes[at + 3] as number) << 24)
  );
}

/** The offset of an element's value (past its type byte and its name). */
function valueAt(bytes: Uint8Array, element: number): number {
  let at = element + 1;
  while (bytes[at] !== 0) at++;
  return at + 1;
}

/** The offset just past a value of `type` at `at` (BSON spec, every type the format has). */
function skipValue(bytes: Uint8Array, type: number, at: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // UTC datetime
    case 0x11: // timestamp
    case 0x12: // int64
      return at + 8;
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      return at + 4 + readInt32(bytes, at);
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      return at + readInt32(bytes, at);
    case 0x05: // binary: length, subtype, bytes
      return at + 5 + readInt32(bytes, at);
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return at;
    case 0x07: // ObjectId
      return at + 12;
    case 0x08: // boolean
      return at + 1;
    case 0x0b: {
      // regular expression: two C strings
      let end = at;
      while (bytes[end] !== 0) end++;
      end++;
      while (bytes[end] !== 0) end++;
      return end + 1;
    }
    case 0x0c: // DBPointer: string, ObjectId
      return at + 4 + readInt32(bytes, at) + 12;
    case 0x10: // int32
      return at + 4;
    case 0x13: // decimal128
      return at + 16;
    default:
      throw new TypeError(`BSON: unknown element type 0x${type.toString(16)}`);
  }
}

/** The offset of the element named `name` in the document at `start`, or -1. */
function findElement(bytes: Uint8Array, start: number, name: Uint8Array): number {
  const end = start + readInt32(bytes, start) - 1;
  let at = start + 4;
  while (at < end) {
    const element = at;
    const value = valueAt(bytes, at);
    if (nameEquals(bytes, element + 1, value - 1, name)) return element;
    at = skipValue(bytes, bytes[element] as number, value);
  }
  return -1;
}

function nameEquals(bytes: Uint8Array, from: number, to: number, name: Uint8Array): boolean {
  if (to - from !== name.length) return false;
  for (let index = 0; index < name.length; index++) {
    if (bytes[from + index] !== name[index]) return false;
  }
  return true;
}

/** Field names as BsonFields compares them (UTF-8 bytes), encoded once per list. */
export function bsonFieldNames(names: readonly string[]): readonly Uint8Array[] {
  const encoder = new TextEncoder();
  return names.map((name) => encoder.encode(name));
}

/**
 * Finds a fixed set of top-level fields in one document per `read`: afterwards `type(slot)` is the
 * BSON type of the field listed at that slot (0 when the document lacks it) and `at(slot)` where its
 * value starts. One instance per answer being written; `read` reuses its arrays.
 */
export class BsonFields {
  readonly #names: readonly Uint8Array[];
  readonly #types: Uint8Array;
  readonly #offsets: Int32Array;
  /** By position in the document: the slot of the field found there last time, -1 none. */
  readonly #guesses: Int8Array;

  constructor(names: readonly Uint8Array[]) {
    this.#names = names;
    this.#types = new Uint8Array(names.length);
    this.#offsets = new Int32Array(names.length);
    this.#guesses = new Int8Array(16).fill(-1);
  }

  read(bytes: Uint8Array, start: number): void {
    this.#types.fill(0);
    const names = this.#names;
    const guesses = this.#guesses;
    const end = start + readInt32(bytes, start) - 1;
    let at = start + 4;
    for (let element = 0; at < end; element++) {
      const type = bytes[at] as number;
      const value = valueAt(bytes, at);
      // The documents of a page share their field order: the slot the same position held in the
      // previous document is tried first.
      let slot = element < guesses.length ? (guesses[element] as number) : -1;
      if (slot < 0 || !nameEquals(bytes, at + 1, value - 1, names[slot] as Uint8Array)) {
        slot = -1;
        for (let candidate = 0; candidate < names.length; candidate++) {
          if (nameEquals(bytes, at + 1, value - 1, names[candidate] as Uint8Array)) {
            slot = candidate;
            break;
          }
        }
        if (element < guesses.length) guesses[element] = slot;
      }
      if (slot >= 0) {
        this.#types[slot] = type;
        this.#offsets[slot] = value;
      }
      at = skipValue(bytes, type, value);
    }
  }

  type(slot: number): number {
    return this.#types[slot] as number;
  }

  at(slot: number): number {
    return this.#offsets[slot] as number;
  }
}
