import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useFreshTestAuth } from "#test/test-auth.ts";
import type { UserDoc } from "../../db/documents.ts";
import { insertUsersInBulk } from "./store.ts";

/** The bench's and imports' bulk path: users with their address claims, an address taken left out. */
const freshTestAuth = useFreshTestAuth();

const user = (email: string): UserDoc => ({
  _id: new ObjectId(),
  email,
  emailVerified: true,
  name: email,
  image: null,
  createdAt: new Date(),
  updatedAt: new Date(),
});

describe("insertUsersInBulk", () => {
  it("writes each user with its claim, skips an address already held, and the users are found by email", async () => {
    const t = await freshTestAuth();
    await signUp(new TestBrowser(t.auth), { email: "taken@example.com" });
    const docs = [user("one@example.com"), user("taken@example.com"), user("two@example.com")];
    const written = await insertUsersInBulk(t.auth.context.collections, docs);
    expect(written.map((doc) => doc.email)).toEqual(["one@example.com", "two@example.com"]);
    expect(await t.db.collection("users").countDocuments({})).toBe(3);
    const claim = await t.db.collection("emailClaims").findOne({ _id: "taken@example.com" as never });
    expect(claim?.userId.equals(docs[1]!._id)).toBe(false);
    const res = await new TestBrowser(t.auth).post("/request-password-reset", { email: "two@example.com" });
    expect(res.status).toBe(200);
    expect(t.outbox.latestTo("two@example.com")).toBeDefined();
  });

  it("a run stopped after the claims and before the users: the next run writes those users (their claims are their own)", async () => {
    const t = await freshTestAuth();
    const docs = [user("kept@example.com"), user("again@example.com")];
    // What an interrupted import leaves: the claims, no users.
    await t.db
      .collection("emailClaims")
      .insertMany(
        docs.map((doc) => ({ _id: doc.email, userId: doc._id, createdAt: doc.createdAt }) as never),
      );
    const written = await insertUsersInBulk(t.auth.context.collections, docs);
    expect(written.map((doc) => doc.email)).toEqual(["kept@example.com", "again@example.com"]);
    expect(await t.db.collection("users").countDocuments({})).toBe(2);
    expect(await t.db.collection("userTimeline").countDocuments({})).toBe(2);
  });
});
