import { describe, expect, it } from "vitest";
import { signUpUser } from "#test/browser.ts";
import { createTestAuth, reusableDatabaseCount } from "#test/test-auth.ts";

/**
 * createTestAuth hands a closed test's database to the next one once emptied (tests/support/test-auth.ts):
 * the next test must find it exactly as a freshly migrated one, and a database whose collections or
 * indexes were changed, or whose name left the test, must never be handed on.
 */
describe("test databases reused between tests", () => {
  const indexes = async (t: Awaited<ReturnType<typeof createTestAuth>>) =>
    (await t.db.collection("users").listIndexes().toArray()).map((index) => index.name).sort();

  it("a reused database has no document of the last test, and the same indexes", async () => {
    const first = await createTestAuth();
    const freshIndexes = await indexes(first);
    await signUpUser(first, { email: "left@example.com" });
    expect(await first.db.collection("users").countDocuments()).toBe(1);
    const before = reusableDatabaseCount();
    await first.close();
    expect(reusableDatabaseCount()).toBe(before + 1);

    const second = await createTestAuth();
    expect(reusableDatabaseCount()).toBe(before);
    expect(await second.db.collection("users").countDocuments()).toBe(0);
    expect(await second.db.collection("sessions").countDocuments()).toBe(0);
    expect(await second.db.collection("accounts").countDocuments()).toBe(0);
    expect(await indexes(second)).toEqual(freshIndexes);
    // Every migration is recorded: migrate() has nothing to run.
    expect(await second.auth.migrate()).toEqual([]);
    await second.close();
  });

  it("a database whose indexes a test changed is dropped, not reused", async () => {
    const t = await createTestAuth();
    const before = reusableDatabaseCount();
    await t.db.collection("users").createIndex({ name: 1 });
    await t.close();
    expect(reusableDatabaseCount()).toBe(before);
  });

  it("a database a test filled with more rows than emptying is worth is dropped, not reused", async () => {
    const t = await createTestAuth();
    const before = reusableDatabaseCount();
    await t.db
      .collection("users")
      .insertMany(Array.from({ length: 1001 }, (_, i) => ({ email: `u${i}@example.com` })));
    await t.close();
    expect(reusableDatabaseCount()).toBe(before);
  });

  it("a database whose name a test read (to hand it to a process) is dropped, not reused", async () => {
    const t = await createTestAuth();
    const before = reusableDatabaseCount();
    expect(t.db.databaseName).toMatch(/^t_/);
    await t.close();
    expect(reusableDatabaseCount()).toBe(before);
  });
});
