import { BSON } from "mongodb";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  defineModel,
  modelShape,
  omitFields,
  pickFields,
  renameField,
  replaceField,
} from "../contracts/model.ts";
import { BsonJsonWriter, writeJsonFields } from "./bson-json.ts";
import { ObjectId } from "./ids.ts";
import { type ModelDoc, modelJsonShape, restoreModelDoc, toModelValue, writeModelJson } from "./model.ts";
import { BsonFields, rawPageOf } from "./raw-page.ts";

/** A model with every kind of field: one declaration gives the schema, the mapper and both writers. */
const noteModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "authorId", kind: "objectId", nullable: true },
  { key: "state", kind: "string", values: ["draft", "posted"] },
  { key: "text", kind: "string", nullable: true },
  { key: "postedAt", kind: "date" },
]);

const doc: ModelDoc<typeof noteModel> = {
  _id: new ObjectId(),
  authorId: new ObjectId(),
  state: "posted",
  text: 'a "quoted" line\u2028',
  postedAt: new Date("2026-01-02T03:04:05.006Z"),
};

describe("a model declared once", () => {
  it("maps a stored document to its API value, in the declaration's key order", () => {
    const value = toModelValue(noteModel, doc);
    expect(Object.keys(value)).toEqual(["id", "authorId", "state", "text", "postedAt"]);
    expect(value).toEqual({
      id: doc._id.toHexString(),
      authorId: doc.authorId!.toHexString(),
      state: "posted",
      text: doc.text,
      postedAt: doc.postedAt,
    });
  });

  it.each([
    ["every field set", doc],
    ["the nullable fields null", { ...doc, authorId: null, text: null }],
  ])(
    "writes the JSON text JSON.stringify writes, from the document and from its BSON bytes: %s",
    (_name, stored) => {
      const expected = JSON.stringify(toModelValue(noteModel, stored));
      expect(writeModelJson(noteModel, stored)).toBe(expected);
      const page = rawPageOf<typeof stored>(BSON.serialize({ firstBatch: [stored], id: 0 }));
      const shape = modelJsonShape(noteModel);
      const fields = new BsonFields(shape.names);
      fields.read(page.bytes, page.starts[0] as number);
      const out = new BsonJsonWriter(64);
      out.text("{");
      expect(writeJsonFields(out, fields, page.bytes, shape)).toBe(true);
      out.text("}");
      expect(out.toString()).toBe(expected);
    },
  );

  it("its schema accepts the API value and refuses a value outside `values`", () => {
    const schema = modelShape(noteModel);
    const value = toModelValue(noteModel, doc);
    for (const [key, field] of Object.entries(schema))
      expect(field.safeParse(value[key as keyof typeof value]).success, key).toBe(true);
    expect(schema.state.safeParse("deleted").success).toBe(false);
    expect(schema.authorId.safeParse(null).success).toBe(true);
    expect(schema.id.safeParse(null).success).toBe(false);
  });
});

describe('a field that is "null or absent"', () => {
  const sharedModel = defineModel([
    { key: "id", stored: "_id", kind: "objectId" },
    { key: "ownerId", kind: "objectId", nullable: "or absent" },
    { key: "label", kind: "string", nullable: "or absent" },
  ]);
  const stored = { _id: new ObjectId() } as ModelDoc<typeof sharedModel>;

  it("reads as null when a stored document lacks it, in every writer", () => {
    expect(toModelValue(sharedModel, stored)).toEqual({
      id: stored._id.toHexString(),
      ownerId: null,
      label: null,
    });
    const expected = JSON.stringify(toModelValue(sharedModel, stored));
    expect(writeModelJson(sharedModel, stored)).toBe(expected);
    const page = rawPageOf<typeof stored>(BSON.serialize({ firstBatch: [stored], id: 0 }));
    const shape = modelJsonShape(sharedModel);
    const fields = new BsonFields(shape.names);
    fields.read(page.bytes, page.starts[0] as number);
    const out = new BsonJsonWriter(64);
    out.text("{");
    expect(writeJsonFields(out, fields, page.bytes, shape)).toBe(true);
    out.text("}");
    expect(out.toString()).toBe(expected);
  });
});

describe("a jsonObject field", () => {
  const settingsModel = defineModel([
    { key: "id", stored: "_id", kind: "objectId" },
    { key: "settings", kind: "jsonObject", nullable: "or absent" },
  ]);
  const id = new ObjectId();

  it.each([
    ['{"a":[1,"x"],"b":null}', { a: [1, "x"], b: null }],
    ["[1,2]", null],
    ['"text"', null],
    ["not json", null],
    [null, null],
    [undefined, null],
  ])("stored as %j answers %j, from every writer", (stored, expected) => {
    const doc = { _id: id, settings: stored } as ModelDoc<typeof settingsModel>;
    expect(toModelValue(settingsModel, doc)).toEqual({ id: id.toHexString(), settings: expected });
    expect(writeModelJson(settingsModel, doc)).toBe(JSON.stringify(toModelValue(settingsModel, doc)));
  });

  it("has no BSON field table (its text is parsed, never copied)", () => {
    expect(() => modelJsonShape(settingsModel)).toThrow("settings: a jsonObject field is not copied");
  });
});

describe("an object field", () => {
  const factsModel = defineModel([
    { key: "id", stored: "_id", kind: "objectId" },
    { key: "details", kind: "object", nullable: true },
  ]);
  const id = new ObjectId();

  it.each([[{ to: ["admin"], until: new Date("2026-12-01T00:00:00Z"), n: { ok: true } }], [{}], [null]])(
    "stored as %j answers it as stored, from every writer",
    (details) => {
      const doc: ModelDoc<typeof factsModel> = { _id: id, details };
      expect(toModelValue(factsModel, doc)).toEqual({ id: id.toHexString(), details });
      expect(writeModelJson(factsModel, doc)).toBe(`{"id":"${id}","details":${JSON.stringify(details)}}`);
    },
  );

  it("is a nullable record in the schema, and has no BSON field table", () => {
    const schema = z.strictObject(modelShape(factsModel));
    expect(schema.safeParse({ id: "x", details: { a: 1 } }).success).toBe(true);
    expect(schema.safeParse({ id: "x", details: "{}" }).success).toBe(false);
    expect(() => modelJsonShape(factsModel)).toThrow("details: a object field is not copied");
  });
});

describe("number, boolean and permissionMap fields, and a computed one", () => {
  const tokenModel = defineModel([
    { key: "id", stored: "_id", kind: "objectId" },
    { key: "active", kind: "boolean" },
    { key: "left", kind: "number", nullable: true, computed: true },
    { key: "limit", kind: "number" },
    { key: "grants", kind: "permissionMap", nullable: true },
  ]);
  // `left` is not a stored field: a stored field of the same name is another thing (here, a budget).
  const stored = {
    _id: new ObjectId(),
    active: true,
    limit: 10,
    grants: { files: ["read", "write"] },
    left: 99,
  };

  it("answers the stored values and the computed one handed over, in the declaration's order", () => {
    const value = toModelValue(tokenModel, stored, { left: 3 });
    expect(Object.keys(value)).toEqual(["id", "active", "left", "limit", "grants"]);
    expect(value).toEqual({
      id: stored._id.toHexString(),
      active: true,
      left: 3,
      limit: 10,
      grants: stored.grants,
    });
    expect(writeModelJson(tokenModel, stored, { left: 3 })).toBe(JSON.stringify(value));
    const nulls = { ...stored, grants: null };
    expect(writeModelJson(tokenModel, nulls, { left: null })).toBe(
      JSON.stringify(toModelValue(tokenModel, nulls, { left: null })),
    );
  });

  it("its schema takes numbers, booleans and resource → actions maps, and nothing else", () => {
    const schema = modelShape(tokenModel);
    expect(schema.limit.safeParse(10).success).toBe(true);
    expect(schema.limit.safeParse("10").success).toBe(false);
    expect(schema.left.safeParse(null).success).toBe(true);
    expect(schema.active.safeParse("true").success).toBe(false);
    expect(schema.grants.safeParse({ files: ["read"] }).success).toBe(true);
    expect(schema.grants.safeParse({ files: "read" }).success).toBe(false);
  });

  it("has no BSON field table (no listing copies these kinds)", () => {
    expect(() => modelJsonShape(tokenModel)).toThrow("active: a boolean field is not copied");
  });
});

describe("optional fields", () => {
  const visitModel = defineModel([
    { key: "id", stored: "_id", kind: "objectId" },
    { key: "at", kind: "date" },
    { key: "guideId", kind: "objectId", optional: true },
    { key: "roomId", kind: "string", optional: "or null" },
  ]);
  const base = { _id: new ObjectId(), at: new Date("2026-01-02T03:04:05.006Z") };

  it.each([
    ["both absent", {}, ["id", "at"]],
    ["an 'or null' field holding null", { roomId: null }, ["id", "at"]],
    ["both set", { guideId: new ObjectId(), roomId: "r1" }, ["id", "at", "guideId", "roomId"]],
  ])("leave the key out when nothing is stored: %s", (_name, fields, keys) => {
    const doc: ModelDoc<typeof visitModel> = { ...base, ...fields };
    const value = toModelValue(visitModel, doc);
    expect(Object.keys(value)).toEqual(keys);
    if (doc.guideId) expect(value.guideId).toBe(doc.guideId.toHexString());
    expect(writeModelJson(visitModel, doc)).toBe(JSON.stringify(value));
  });

  it("its schema accepts the key left out, never null", () => {
    const schema = modelShape(visitModel);
    expect(schema.guideId.safeParse(undefined).success).toBe(true);
    expect(schema.roomId.safeParse(null).success).toBe(false);
  });

  it("has no BSON field table", () => {
    const withOptional = defineModel([{ key: "guideId", kind: "objectId", optional: true }]);
    expect(() => modelJsonShape(withOptional)).toThrow("guideId: a objectId field is not copied");
  });
});

describe("restoreModelDoc", () => {
  const everyKind = defineModel([
    { key: "id", stored: "_id", kind: "objectId" },
    { key: "ownerId", kind: "objectId", nullable: true },
    { key: "label", kind: "string" },
    { key: "count", kind: "number" },
    { key: "open", kind: "boolean" },
    { key: "at", kind: "date" },
    { key: "settings", kind: "jsonObject", nullable: true },
    { key: "grants", kind: "permissionMap", nullable: true },
    { key: "left", kind: "number", computed: true },
    { key: "guideId", kind: "objectId", optional: true },
    { key: "roomId", kind: "string", optional: "or null" },
  ]);
  const doc: ModelDoc<typeof everyKind> = {
    _id: new ObjectId(),
    ownerId: null,
    label: "x",
    count: 2,
    open: false,
    at: new Date("2026-01-02T03:04:05.006Z"),
    settings: '{"a":1}',
    grants: { files: ["read"] },
    guideId: new ObjectId(),
    roomId: "r1",
  };
  const throughJson = (stored: ModelDoc<typeof everyKind>) =>
    restoreModelDoc(everyKind, JSON.parse(JSON.stringify(toModelValue(everyKind, stored, { left: 5 }))));

  it("gives back the stored fields from the API value's JSON (computed fields left out)", () => {
    expect(throughJson(doc)).toStrictEqual(doc);
  });

  it("leaves out an optional field the JSON lacks (stored null or absent alike)", () => {
    const { guideId: _guide, roomId: _room, ...required } = doc;
    expect(throughJson({ ...required, roomId: null })).toStrictEqual(required);
    expect(throughJson(required)).toStrictEqual(required);
  });
});

describe("a view of a model", () => {
  it("picks the fields named, in the order named", () => {
    const view = pickFields(noteModel, ["postedAt", "id", "text"]);
    expect(JSON.stringify(toModelValue(view, doc))).toBe(
      `{"postedAt":"2026-01-02T03:04:05.006Z","id":"${doc._id.toHexString()}","text":${JSON.stringify(doc.text)}}`,
    );
    expect(() => pickFields(noteModel, ["nothing" as "id"])).toThrow("the model has no field nothing");
  });

  it("omits the fields named and keeps the rest in the model's order, in the schema too", () => {
    const view = omitFields(noteModel, ["authorId", "text"]);
    expect(Object.keys(toModelValue(view, doc))).toEqual(["id", "state", "postedAt"]);
    expect(
      z.strictObject(modelShape(view)).safeParse({ ...toModelValue(view, doc), text: null }).success,
    ).toBe(false);
  });

  it("declares one field anew in its place: optional in the model, null in the view", () => {
    const model = defineModel([
      { key: "id", stored: "_id", kind: "objectId" },
      { key: "by", kind: "objectId", optional: true },
      { key: "at", kind: "date" },
    ]);
    const view = replaceField(model, { key: "by", kind: "objectId", nullable: "or absent" });
    const stored = { _id: doc._id, at: doc.postedAt };
    expect(toModelValue(model, stored)).toEqual({ id: doc._id.toHexString(), at: doc.postedAt });
    expect(Object.entries(toModelValue(view, stored))).toEqual([
      ["id", doc._id.toHexString()],
      ["by", null],
      ["at", doc.postedAt],
    ]);
    expect(writeModelJson(view, stored)).toBe(JSON.stringify(toModelValue(view, stored)));
  });
});

describe("a field under another key, and a string list", () => {
  const view = defineModel([
    ...pickFields(noteModel, ["id"]),
    renameField(noteModel, "state", "status"),
    { key: "tags", kind: "stringList", computed: true },
  ]);

  it("reads the renamed key from the model's stored field; the list is answered as handed over", () => {
    const value = toModelValue(view, doc, { tags: ["a", "b"] });
    expect(Object.entries(value)).toEqual([
      ["id", doc._id.toHexString()],
      ["status", "posted"],
      ["tags", ["a", "b"]],
    ]);
    expect(writeModelJson(view, doc, { tags: ["a", "b"] })).toBe(JSON.stringify(value));
    expect(restoreModelDoc(view, JSON.parse(JSON.stringify(value)))).toEqual({
      _id: doc._id,
      state: "posted",
    });
  });

  it("keeps the renamed field's values in the schema; a list takes strings only", () => {
    const schema = z.strictObject(modelShape(view));
    expect(schema.safeParse({ id: "x", status: "draft", tags: [] }).success).toBe(true);
    expect(schema.safeParse({ id: "x", status: "other", tags: [] }).success).toBe(false);
    expect(schema.safeParse({ id: "x", status: "draft", tags: [1] }).success).toBe(false);
    expect(() => renameField(noteModel, "nothing" as "id", "x")).toThrow("the model has no field nothing");
  });
});

describe('a flag, and a field left out "or empty"', () => {
  const flagModel = defineModel([
    { key: "id", stored: "_id", kind: "objectId" },
    { key: "banned", kind: "flag" },
    { key: "guarded", kind: "flag", optional: "or empty" },
    { key: "language", kind: "string", values: ["ENG", "FRA"], optional: "or empty" },
  ]);
  const _id = new ObjectId("64b7f0a1c2d3e4f5a6b7c8d9");
  it.each([
    ["nothing stored", {}, `{"id":"${_id}","banned":false}`],
    [
      "flags off, an empty text",
      { banned: false, guarded: false, language: "" },
      `{"id":"${_id}","banned":false}`,
    ],
    [
      "a truthy non-boolean is not true",
      { banned: 1, guarded: 1, language: null },
      `{"id":"${_id}","banned":false}`,
    ],
    [
      "flags on, a text",
      { banned: true, guarded: true, language: "FRA" },
      `{"id":"${_id}","banned":true,"guarded":true,"language":"FRA"}`,
    ],
  ])("%s: the mapper and the writer agree", (_name, fields, json) => {
    const doc = { _id, ...fields } as unknown as ModelDoc<typeof flagModel>;
    expect(JSON.stringify(toModelValue(flagModel, doc))).toBe(json);
    expect(writeModelJson(flagModel, doc)).toBe(json);
  });

  it("an optional flag's schema takes only true; a flag's, true or false", () => {
    const schema = z.strictObject(modelShape(flagModel));
    expect(schema.safeParse({ id: "x", banned: false, guarded: true }).success).toBe(true);
    expect(schema.safeParse({ id: "x", banned: false, guarded: false }).success).toBe(false);
  });
});
