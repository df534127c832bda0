import { isUtf8 } from "node:buffer";
import {
  type BsonFields,
  bsonFieldNames,
  readInt32,
  TYPE_DATE,
  TYPE_NULL,
  TYPE_OBJECT_ID,
  type TYPE_STRING,
} from "./raw-page.ts";

const HEX = new TextEncoder().encode("0123456789abcdef");
/** Date.prototype.toISOString's four-digit years: 0000-01-01 up to (not including) 10000-01-01. */
const FOUR_DIGIT_YEARS_END_MS = 253_402_300_800_000;
const DAY_MS = 86_400_000;

/**
 * JSON text written as UTF-8 bytes, each value exactly as JSON.stringify writes the value the
 * driver would have decoded from the same BSON (a string, an ObjectId's hex, a Date's toJSON).
 * `string` returns false, writing nothing, for a BSON string that is not valid UTF-8: the driver
 * refuses such text, so the caller decodes the document instead and fails as before.
 */
export class BsonJsonWriter {
  #bytes: Buffer;
  #length = 0;
  /** Whether any byte above 0x7f was written: without one the text is ASCII (read as latin1, faster). */
  #isAscii = true;

  constructor(capacity: number) {
    this.#bytes = Buffer.allocUnsafe(Math.max(capacity, 256));
  }

  get length(): number {
    return this.#length;
  }

  /** Forgets everything written after `length` (a document abandoned halfway). */
  truncate(length: number): void {
    this.#length = length;
  }

  #reserve(count: number): void {
    if (this.#length + count <= this.#bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#length + count));
    this.#bytes.copy(grown, 0, 0, this.#length);
    this.#bytes = grown;
  }

  /** Text written as it is (JSON punctuation and field names, or a value's finished JSON text). */
  text(text: string): void {
    this.#reserve(text.length * 3);
    if (text.length <= 32) {
      // Short text (punctuation, field names): a loop beats a call into Buffer#write.
      const out = this.#bytes;
      const start = this.#length;
      let index = 0;
      for (; index < text.length; index++) {
        const code = text.charCodeAt(index);
        if (code > 0x7f) break;
        out[start + index] = code;
      }
      if (index === text.length) {
        this.#length = start + index;
        return;
      }
    }
    const written = this.#bytes.write(text, this.#length, "utf8");
    if (written !== text.length) this.#isAscii = false;
    this.#length += written;
  }

  /** An ObjectId value at `at` as its quoted lower-case hex. */
  objectId(bytes: Uint8Array, at: number): void {
    this.#reserve(26);
    const out = this.#bytes;
    let to = this.#length;
    out[to++] = 0x22;
    for (let index = at; index < at + 12; index++) {
      const byte = bytes[index] as number;
      out[to++] = HEX[byte >> 4] as number;
      out[to++] = HEX[byte & 15] as number;
    }
    out[to++] = 0x22;
    this.#length = to;
  }

  /**
   * A BSON string value at `at` as JSON.stringify writes it: `"` and `\` escaped, control
   * characters as \b \t \n \f \r or \u00xx, everything else (valid UTF-8) copied as it is.
   */
  string(bytes: Uint8Array, at: number): boolean {
    const size = readInt32(bytes, at);
    const from = at + 4;
    const to = from + size - 1;
    if (size < 1 || bytes[to] !== 0) return false;
    this.#reserve(2 + 6 * (size - 1));
    const out = this.#bytes;
    let length = this.#length;
    out[length++] = 0x22;
    let isAscii = true;
    for (let index = from; index < to; index++) {
      const byte = bytes[index] as number;
      if (byte >= 0x20 && byte !== 0x22 && byte !== 0x5c) {
        if (byte > 0x7f) isAscii = false;
        out[length++] = byte;
        continue;
      }
      out[length++] = 0x5c;
      const short = SHORT_ESCAPES[byte] as number;
      if (short !== 0) {
        out[length++] = short;
      } else {
        out[length++] = 0x75; // u00xx
        out[length++] = 0x30;
        out[length++] = 0x30;
        out[length++] = HEX[byte >> 4] as number;
        out[length++] = HEX[byte & 15] as number;
      }
    }
    if (!isAscii) {
      if (!isUtf8(bytes.subarray(from, to))) return false;
      this.#isAscii = false;
    }
    out[length++] = 0x22;
    this.#length = length;
    return true;
  }

  /** A BSON UTC datetime at `at` as JSON.stringify writes the Date the driver decodes from it. */
  date(bytes: Uint8Array, at: number): void {
    // The driver's Long.toNumber: high * 2^32 + unsigned low.
    const ms = readInt32(bytes, at + 4) * 4_294_967_296 + (readInt32(bytes, at) >>> 0);
    if (!(ms >= 0 && ms < FOUR_DIGIT_YEARS_END_MS)) {
      const text: string | null = new Date(ms).toJSON();
      this.text(text === null ? "null" : `"${text}"`);
      return;
    }
    // Civil date from days since 1970-01-01 (H. Hinnant's days_from_civil, inverted).
    const days = Math.floor(ms / DAY_MS);
    let rest = ms - days * DAY_MS;
    const shifted = days + 719_468;
    const era = Math.floor(shifted / 146_097);
    const dayOfEra = shifted - era * 146_097;
    const yearOfEra = Math.floor(
      (dayOfEra -
        Math.floor(dayOfEra / 1460) +
        Math.floor(dayOfEra / 36_524) -
        Math.floor(dayOfEra / 146_096)) /
        365,
    );
    const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
    const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
    const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
    const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
    const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
    const hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
    const minutes = Math.floor(rest / 60_000);
    rest -= minutes * 60_000;
    const seconds = Math.floor(rest / 1000);
    const millis = rest - seconds * 1000;
    this.#reserve(26);
    const out = this.#bytes;
    let to = this.#length;
    out[to++] = 0x22;
    to = writeDigits(out, to, year, 4);
    out[to++] = 0x2d;
    to = writeDigits(out, to, month, 2);
    out[to++] = 0x2d;
    to = writeDigits(out, to, day, 2);
    out[to++] = 0x54;
    to = writeDigits(out, to, hours, 2);
    out[to++] = 0x3a;
    to = writeDigits(out, to, minutes, 2);
    out[to++] = 0x3a;
    to = writeDigits(out, to, seconds, 2);
    out[to++] = 0x2e;
    to = writeDigits(out, to, millis, 3);
    out[to++] = 0x5a;
    out[to++] = 0x22;
    this.#length = to;
  }

  /** The text written so far. */
  toString(): string {
    return this.#bytes.toString(this.#isAscii ? "latin1" : "utf8", 0, this.#length);
  }
}

/** JSON.stringify's two-character escapes (the second character), by the byte they replace; 0: \u00xx. */
const SHORT_ESCAPES = new Uint8Array(0x60);
for (const [byte, letter] of [
  [0x08, "b"],
  [0x09, "t"],
  [0x0a, "n"],
  [0x0c, "f"],
  [0x0d, "r"],
  [0x22, '"'],
  [0x5c, "\\"],
] as const) {
  SHORT_ESCAPES[byte] = letter.charCodeAt(0);
}

function writeDigits(out: Buffer, at: number, value: number, width: number): number {
  for (let index = width - 1; index >= 0; index--) {
    out[at + index] = 0x30 + (value % 10);
    value = Math.floor(value / 10);
  }
  return at + width;
}

/**
 * One field of a stored document written as a JSON member: the stored field's name, the JSON key
 * (the field's name unless given), its BSON type (an ObjectId as hex, a string, a date), and what
 * else it may hold — `null` also a BSON null, `null or absent` also a missing field (both written
 * as null).
 */
export interface JsonField {
  field: string;
  key?: string;
  type: typeof TYPE_OBJECT_ID | typeof TYPE_STRING | typeof TYPE_DATE;
  orNull?: "null" | "null or absent";
}

/** A document's JSON members in order, with the field names a BsonFields looks for (slot = position). */
export interface JsonShape {
  names: readonly Uint8Array[];
  fields: readonly (JsonField & { key: string })[];
}

export function jsonShape(fields: readonly JsonField[]): JsonShape {
  return {
    names: bsonFieldNames(fields.map((spec) => spec.field)),
    fields: fields.map((spec) => ({ ...spec, key: spec.key ?? spec.field })),
  };
}

/**
 * The shape's `"key":value` members, comma-separated, as JSON.stringify writes the values the driver
 * decodes; `found` has read the document with the shape's names. False when a field holds another
 * type (checked before anything is written) or a string is not UTF-8 (part written: the caller
 * truncates and writes the decoded document instead).
 */
export function writeJsonFields(
  out: BsonJsonWriter,
  found: BsonFields,
  bytes: Uint8Array,
  shape: JsonShape,
): boolean {
  const specs = shape.fields;
  for (let slot = 0; slot < specs.length; slot++) {
    const spec = specs[slot] as JsonField;
    const type = found.type(slot);
    if (type === spec.type) continue;
    if (
      spec.orNull === undefined ||
      !(type === TYPE_NULL || (type === 0 && spec.orNull === "null or absent"))
    )
      return false;
  }
  for (let slot = 0; slot < specs.length; slot++) {
    const spec = specs[slot] as JsonField & { key: string };
    out.text(slot === 0 ? '"' : ',"');
    out.text(spec.key);
    out.text('":');
    if (found.type(slot) !== spec.type) out.text("null");
    else if (spec.type === TYPE_OBJECT_ID) out.objectId(bytes, found.at(slot));
    else if (spec.type === TYPE_DATE) out.date(bytes, found.at(slot));
    else if (!out.string(bytes, found.at(slot))) return false;
  }
  return true;
}
