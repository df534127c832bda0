import { randomBytes } from "node:crypto";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { prefixRange, startsWith } from "./prefix.ts";
import { listItemPattern } from "./regex.ts";

const client = new MongoClient(inject("mongoUri"));
const db = client.db(`t_${randomBytes(6).toString("hex")}`);
afterAll(async () => {
  await db.dropDatabase().catch(() => {});
  await client.close();
});

const IDENTIFIERS = [
  "lane:a",
  "lane:a:1",
  "lane:a:10",
  "lane:a;",
  "lane:b:1",
  "lane:ä:1",
  "lane:ä",
  "lane:a.*:1",
  "lanex:a:1",
  "LANE:a:1",
];

const rows = db.collection<{ identifier: string }>("prefixes");
beforeAll(async () => {
  await rows.insertMany(IDENTIFIERS.map((identifier) => ({ identifier })));
});

async function matching(condition: object): Promise<string[]> {
  const found = await rows.find({ identifier: condition }).toArray();
  return found.map((row) => row.identifier).sort();
}

describe("startsWith", () => {
  it("is a range for a printable ASCII prefix, matching exactly the identifiers that start with it", async () => {
    expect(startsWith("lane:a:")).toEqual({ $gte: "lane:a:", $lt: "lane:a;" });
    expect(await matching(startsWith("lane:a:"))).toEqual(["lane:a:1", "lane:a:10"]);
    expect(await matching(startsWith("lane:a.*:"))).toEqual(["lane:a.*:1"]);
    expect(await matching(startsWith("lane:"))).toEqual(
      IDENTIFIERS.filter((identifier) => identifier.startsWith("lane:")).sort(),
    );
  });

  it("falls back to an escaped anchored pattern for other prefixes, with the same answers", async () => {
    expect(prefixRange("lane:ä:")).toBeNull();
    expect(prefixRange("")).toBeNull();
    expect(startsWith("lane:ä:")).toEqual({ $regex: "^lane:ä:" });
    expect(await matching(startsWith("lane:ä:"))).toEqual(["lane:ä:1"]);
    expect(await matching(startsWith("lane a"))).toEqual([]);
  });
});

describe("listItemPattern", () => {
  it("matches one entry of a comma-separated list, taken literally", () => {
    const holds = (list: string, item: string) => new RegExp(listItemPattern(item)).test(list);
    expect(holds("admin,member", "member")).toBe(true);
    expect(holds("admin, member ", "member")).toBe(true);
    expect(holds("administrator", "admin")).toBe(false);
    expect(holds("a.b", "a.b")).toBe(true);
    expect(holds("axb", "a.b")).toBe(false);
  });
});
