import { ObjectId } from "mongodb";
import { beforeEach, describe, expect, it } from "vitest";
import { createCast, type Person, signUpPerson } from "#test/admin.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { PREFIX_SEARCH_LIMIT } from "../users/listing.ts";

/**
 * Admin list-users from keyed reads (docs/scale.md): the default page comes from the users'
 * timeline, an address-prefix search from the address claims. Each answer must be the one the
 * users collection gives, whatever state a crash left the timeline in.
 */
let t: TestAuth;
let admin: Person;
const freshTestAuth = useFreshTestAuth();

interface Listed {
  users: { id: string; email: string }[];
  total: number;
}

async function list(query = ""): Promise<Listed> {
  const answer = await admin.browser.get<Listed>(`/admin/list-users${query}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The users collection's own order: what list-users must answer. */
async function stored(direction: 1 | -1): Promise<string[]> {
  const users = await t.db
    .collection("users")
    .find({}, { projection: { email: 1 } })
    .sort({ createdAt: direction, _id: direction })
    .toArray();
  return users.map((user) => user.email as string);
}

/**
 * These tests write the timeline and the claims directly, as a crash would leave them, and each
 * list must show the database's answer: admin list-users' page cache (list-users-cache.test.ts) is
 * off, so every request reads.
 */
const READ_EVERY_TIME = { admin: { listingCache: false as const } };

const emails = (listed: Listed) => listed.users.map((user) => user.email);
const timeline = () => t.db.collection<{ _id: string; userId: ObjectId }>("userTimeline");

describe("admin list-users from the users' timeline", () => {
  beforeEach(async () => {
    // A frozen clock: every user below is created in the same millisecond but the last two, so the
    // order between them is decided by their ids, as the users collection's sort decides it.
    t = await freshTestAuth(READ_EVERY_TIME, { frozen: true });
    ({ admin } = await createCast(t));
    for (const name of ["cora", "dan", "eve"]) await signUpPerson(t, name);
    t.advance(5);
    await signUpPerson(t, "finn");
    t.advance(5);
    await signUpPerson(t, "gil");
  });

  it("answers the users collection's order and total, newest or oldest first, any page", async () => {
    expect(await timeline().countDocuments({})).toBe(7);
    const newest = await stored(-1);
    expect(newest.slice(0, 2)).toEqual(["gil@example.com", "finn@example.com"]);
    expect(await list()).toMatchObject({ total: 7 });
    expect(emails(await list())).toEqual(newest);
    expect(emails(await list("?sortDirection=asc"))).toEqual(await stored(1));
    expect(emails(await list("?limit=2&offset=3"))).toEqual(newest.slice(3, 5));
    expect(emails(await list("?limit=3&offset=6"))).toEqual(newest.slice(6));
    expect(await list("?offset=40")).toEqual({ users: [], total: 7, limit: 100, offset: 40 });
  });

  it("reads by key: the timeline range, users by _id, two counts — no sort or count of the users collection", async () => {
    const commands = await t.commands(() => list());
    // The session read comes first; then the page.
    expect(commands.slice(-4).sort()).toEqual([
      "count:userTimeline",
      "count:users",
      "find:userTimeline",
      "find:users",
    ]);
    const reads = await t.queries(() => list());
    expect(reads.find((read) => read.command === "find:userTimeline")?.filter).toEqual({
      _id: { $gte: "t", $lt: "u" },
    });
    expect(Object.keys(reads.findLast((read) => read.command === "find:users")?.filter ?? {})).toEqual([
      "_id",
    ]);
  });

  it("a sign-up adds its entry and a deleted user takes its entry away", async () => {
    const hana = await signUpPerson(t, "hana");
    const entry = await timeline().findOne({ userId: new ObjectId(hana.id) });
    expect(entry?._id).toMatch(/^t\d{16}:[0-9a-f]{24}$/);
    expect(emails(await list())[0]).toBe("hana@example.com");
    const removed = await admin.browser.post("/admin/remove-user", { userId: hana.id });
    expect(removed.status).toBe(200);
    expect(await timeline().countDocuments({ userId: new ObjectId(hana.id) })).toBe(0);
    expect(emails(await list())).toEqual(await stored(-1));
  });

  it("an entry without a user or a user without an entry: the answer stays exact, and cleanup puts the timeline right", async () => {
    const newest = await stored(-1);
    // As a crash between a user's delete and its entry's would leave it.
    const orphan = {
      _id: `t${String(1e15 + 1000).padStart(16, "0")}:${"0".repeat(24)}`,
      userId: new ObjectId(),
    };
    await timeline().insertOne(orphan);
    expect(await list()).toMatchObject({ total: 7 });
    expect(emails(await list())).toEqual(newest);
    expect(await t.commands(() => list())).toContain("aggregate:users");
    t.advance(120);
    expect(await t.auth.cleanup()).toMatchObject({ userTimeline: 1 });
    expect(await timeline().countDocuments({ _id: orphan._id })).toBe(0);
    expect(await t.commands(() => list())).not.toContain("aggregate:users");

    // As a database from an older version copied in without its timeline would be.
    const finn = await t.db.collection("users").findOne({ email: "finn@example.com" });
    await timeline().deleteOne({ userId: finn?._id });
    expect(emails(await list())).toEqual(newest);
    expect(await t.commands(() => list())).toContain("aggregate:users");
    expect(await t.auth.cleanup()).toMatchObject({ userTimeline: 1 });
    expect(await timeline().countDocuments({ userId: finn?._id })).toBe(1);
    expect(await t.commands(() => list())).not.toContain("aggregate:users");
    expect(emails(await list())).toEqual(newest);
    expect(await t.auth.cleanup()).toMatchObject({ userTimeline: 0 });
  });

  it("an entry whose _id names no user id, or another user, makes the page fall back to the users collection", async () => {
    const newest = await stored(-1);
    const finn = await t.db.collection("users").findOne({ email: "finn@example.com" });
    const gil = await t.db.collection("users").findOne({ email: "gil@example.com" });
    await timeline().deleteOne({ userId: finn?._id });
    // The counts still agree; the page is read from the timeline's ids alone (db/ids.ts userIdOfTimelineId).
    for (const _id of [
      `t${String(1e15 + 1000).padStart(16, "0")}:not-an-id`,
      `t0:${gil?._id.toHexString()}`,
    ]) {
      await timeline().insertOne({ _id, userId: finn!._id });
      expect(await list()).toMatchObject({ total: 7 });
      expect(emails(await list())).toEqual(newest);
      expect(await t.commands(() => list())).toContain("aggregate:users");
      await timeline().deleteOne({ _id });
    }
  });

  it("an entry written a moment ago without its user yet (a sign-up in flight) is left for the sign-up", async () => {
    const inFlight = new ObjectId();
    const id = `t${String(t.now().getTime() + 1e15).padStart(16, "0")}:${inFlight.toHexString()}`;
    await timeline().insertOne({ _id: id, userId: inFlight });
    expect(await t.auth.cleanup()).toMatchObject({ userTimeline: 0 });
    expect(await timeline().countDocuments({ _id: id })).toBe(1);
  });

  it("migration 0010 enters every user of an older database", async () => {
    // A database from before the timeline: no entries, and 0010 not recorded as applied.
    const unapply = () =>
      t.db.collection<{ _id: string }>("_migrations").deleteOne({ _id: "0010-user-timeline" });
    await timeline().deleteMany({});
    await unapply();
    expect(await t.auth.migrate()).toEqual(["0010-user-timeline"]);
    expect(await timeline().countDocuments({})).toBe(7);
    expect(emails(await list())).toEqual(await stored(-1));
    await unapply();
    expect(await t.auth.migrate()).toEqual(["0010-user-timeline"]);
    expect(await timeline().countDocuments({})).toBe(7);
  });
});

describe("admin list-users search by address prefix, from the address claims", () => {
  beforeEach(async () => {
    t = await freshTestAuth(READ_EVERY_TIME);
    ({ admin } = await createCast(t));
    for (const name of ["ann", "anna", "bob", "annex"]) {
      await signUpPerson(t, name);
      t.advance(1);
    }
  });

  const search = (value: string, extra = "") =>
    list(`?searchField=email&searchOperator=starts_with&searchValue=${encodeURIComponent(value)}${extra}`);

  it("answers the matching users newest first, whatever the case typed, with their number", async () => {
    expect(emails(await search("ANN"))).toEqual(["annex@example.com", "anna@example.com", "ann@example.com"]);
    expect(await search("ann")).toMatchObject({ total: 3 });
    expect(emails(await search("ann", "&sortDirection=asc&limit=2"))).toEqual([
      "ann@example.com",
      "anna@example.com",
    ]);
    expect(emails(await search("ann@"))).toEqual(["ann@example.com"]);
    expect(await search("zed")).toEqual({ users: [], total: 0, limit: 100, offset: 0 });
    // The same answers as the regular-expression search over the users collection (the fallback).
    const scanned = await list(
      "?searchField=email&searchOperator=starts_with&searchValue=ann&filterField=banned&filterValue=false",
    );
    expect(emails(scanned)).toEqual(emails(await search("ann")));
  });

  it("reads the claims' _id range and the users by _id", async () => {
    const reads = await t.queries(() => search("ann"));
    expect(reads.find((read) => read.command === "find:emailClaims")?.filter).toEqual({
      _id: { $gte: "ann", $lt: "ano" },
    });
    expect(Object.keys(reads.findLast((read) => read.command === "find:users")?.filter ?? {})).toEqual([
      "_id",
    ]);
    expect(reads.map((read) => read.command)).not.toContain("aggregate:users");
  });

  it("a stale claim (its user now has another address) is not a match", async () => {
    const bob = await t.db.collection("users").findOne({ email: "bob@example.com" });
    await t.db
      .collection<{ _id: string; userId: ObjectId; createdAt: Date }>("emailClaims")
      .insertOne({ _id: "annie@example.com", userId: bob?._id as ObjectId, createdAt: t.now() });
    expect(emails(await search("ann"))).toEqual(["annex@example.com", "anna@example.com", "ann@example.com"]);
  });

  it(`more than ${PREFIX_SEARCH_LIMIT} addresses under the prefix: the users collection answers`, async () => {
    const claims = Array.from({ length: PREFIX_SEARCH_LIMIT + 1 }, (_, n) => ({
      _id: `bulk-${n}@example.com`,
      userId: new ObjectId(),
      createdAt: t.now(),
    }));
    await t.db
      .collection<{ _id: string; userId: ObjectId; createdAt: Date }>("emailClaims")
      .insertMany(claims);
    const commands = await t.commands(() => search("bulk"));
    expect(commands).toContain("aggregate:users");
    expect(await search("bulk")).toMatchObject({ users: [], total: 0 });
  });
});
