import { BSON, ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { useTestAuth } from "#test/test-auth.ts";
import { AWKWARD_TEXTS } from "../http/json-text.test.cases.ts";
import { jsonDate } from "../http/json-text.ts";
import { BsonJsonWriter } from "./bson-json.ts";
import { findPage } from "./find-page.ts";
import { BsonFields, bsonFieldNames, findRawPage, rawPageOf } from "./raw-page.ts";

/** A reply's cursor document holding `documents`, as BSON. */
function cursorOf(documents: object[]): Uint8Array {
  return BSON.serialize({ firstBatch: documents, id: 0, ns: "test.page" });
}

/** What the writer makes of field `name` of a one-document page ("refused" when `write` says false). */
function written(value: unknown, write: (out: BsonJsonWriter, bytes: Uint8Array, at: number) => unknown) {
  const page = rawPageOf(cursorOf([{ value }]));
  const fields = new BsonFields(bsonFieldNames(["value"]));
  fields.read(page.bytes, page.starts[0] as number);
  const out = new BsonJsonWriter(16);
  return write(out, page.bytes, fields.at(0)) === false ? "refused" : out.toString();
}

describe("BSON values are written as JSON.stringify writes what the driver decodes", () => {
  const texts = [
    ...AWKWARD_TEXTS,
    Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).join(""),
    "\u007f\u0080\u00ff ÿ ĀĀ 中文 \uffff",
    "x".repeat(5000),
  ];
  it.each(texts.map((text) => [JSON.stringify(text), text]))("the string %s", (_name, text) => {
    const decoded = rawPageOf<{ value: string }>(cursorOf([{ value: text }])).decode(0).value;
    expect(written(text, (out, bytes, at) => out.string(bytes, at))).toBe(JSON.stringify(decoded));
  });

  it("a string that is not UTF-8 is refused (the driver refuses to decode it)", () => {
    const cursor = cursorOf([{ value: "abcé" }]) as Buffer;
    const at = cursor.indexOf(Buffer.from("é"));
    cursor[at + 1] = 0x41; // a lead byte followed by an ASCII byte
    const page = rawPageOf(cursor);
    const fields = new BsonFields(bsonFieldNames(["value"]));
    fields.read(page.bytes, page.starts[0] as number);
    expect(new BsonJsonWriter(16).string(page.bytes, fields.at(0))).toBe(false);
    expect(() => page.decode(0)).toThrow();
  });

  it("ObjectIds as their hex", () => {
    for (const id of [
      new ObjectId(),
      new ObjectId("000000000000000000000000"),
      new ObjectId("ffffffffffffffffffffffff"),
    ]) {
      expect(written(id, (out, bytes, at) => out.objectId(bytes, at))).toBe(JSON.stringify(id.toHexString()));
    }
  });

  it("dates, as Date#toJSON writes them, across and beyond four-digit years", () => {
    const times = [
      0,
      1,
      -1,
      999,
      86_399_999,
      86_400_000,
      951_782_400_000 /* 2000-02-29 */,
      4_107_542_399_999 /* 2100-02-28 */,
      -2_203_891_200_000 /* 1900-03-01 */,
      -62_167_219_200_000 /* year 0 */,
      -62_167_219_200_001,
      253_402_300_799_999,
      253_402_300_800_000,
      8.64e15,
      -8.64e15,
      8.64e15 + 1,
      -8.64e15 - 1,
      2 ** 53 + 2,
      -(2 ** 60),
    ];
    for (let index = 0; index < 2000; index++) times.push(Math.floor((Math.random() * 2 - 1) * 3e14));
    for (const time of times) {
      const page = rawPageOf<{ value: Date }>(cursorOf([{ value: BSON.Long.fromBigInt(BigInt(time)) }]));
      // The same 8 bytes tagged as a UTC datetime (0x09) instead of an int64 (0x12).
      const fields = new BsonFields(bsonFieldNames(["value"]));
      fields.read(page.bytes, page.starts[0] as number);
      page.bytes[fields.at(0) - "value".length - 2] = 0x09;
      const out = new BsonJsonWriter(16);
      out.date(page.bytes, fields.at(0));
      expect(out.toString(), String(time)).toBe(jsonDate(page.decode(0).value));
    }
  });
});

describe("findRawPage", () => {
  const t = useTestAuth();

  it("reads the documents findPage reads, as bytes that decode to the same documents", async () => {
    const collection = t.db.collection<{ _id: ObjectId; n: number; text: string; at: Date }>("raw_page_test");
    const docs = AWKWARD_TEXTS.map((text, n) => ({
      _id: new ObjectId(),
      n,
      text,
      at: new Date(1_700_000_000_000 + n),
    }));
    await collection.insertMany(docs);
    const query = { filter: {}, sort: { n: -1 as const }, limit: 3 };
    const raw = await findRawPage(collection, query);
    expect(raw.length).toBe(3);
    expect(raw.decodeAll()).toEqual(await findPage(collection, query));
    expect(await t.commands(() => findRawPage(collection, query))).toEqual(["find:raw_page_test"]);
  });

  it("an empty page", async () => {
    const raw = await findRawPage(t.db.collection("raw_page_empty"), { filter: {}, limit: 5 });
    expect(raw.length).toBe(0);
    expect(raw.decodeAll()).toEqual([]);
  });
});
