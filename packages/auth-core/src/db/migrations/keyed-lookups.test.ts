import { type Document, ObjectId } from "mongodb";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUp, TestBrowser } from "#test/browser.ts";
import { createTestAuth, type TestAuth } from "#test/test-auth.ts";
import { coreMigrationSteps } from "../../create-auth.ts";
import { resetPasswordIdentifier } from "../../features/password/rules.ts";
import { keyedId } from "../ids.ts";
import { keyedLookups } from "./0009-keyed-lookups.ts";

/**
 * docs/scale.md on an existing deployment: data written before 0009 — sessions, accounts and
 * verifications under random `_id`s with unique indexes on their keys, users without address
 * claims — keeps working after the upgrade: the old cookie, the old password, the mailed link.
 */
let t: TestAuth;
afterEach(() => t.close());

const RESET_TOKEN = "aB3dE5gH9jK1mN2pQ4rS6tU8";

/** Puts the database back the way versions before 0009 wrote it. */
async function writeAsBefore(): Promise<void> {
  for (const name of ["sessions", "accounts", "verifications"]) {
    const collection = t.db.collection(name);
    const docs = await collection.find({}).toArray();
    await collection.deleteMany({});
    if (docs.length > 0) await collection.insertMany(docs.map((doc) => ({ ...doc, _id: new ObjectId() })));
  }
  await t.db.collection("emailClaims").deleteMany({});
  await t.db.collection("verifications").dropIndex("identifier");
  await t.db.collection("sessions").createIndex({ token: 1 }, { unique: true, name: "token_unique" });
  await t.db
    .collection("accounts")
    .createIndex({ providerId: 1, accountId: 1 }, { unique: true, name: "provider_account_unique" });
  await t.db
    .collection("verifications")
    .createIndex({ identifier: 1 }, { unique: true, name: "identifier_unique" });
  await t.db.collection("_migrations").deleteOne({ _id: "0009-keyed-lookups" as never });
}

const count = (name: string) => t.db.collection(name).countDocuments({});
const indexNames = async (name: string) =>
  (await t.db.collection(name).listIndexes().toArray()).map((index: Document) => index.name as string);

describe("0009-keyed-lookups", () => {
  it("moves sessions, accounts and verifications to their keyed _id and claims every address; the old cookie, password and link still work", async () => {
    t = await createTestAuth();
    const ada = new TestBrowser(t.auth);
    const signedUp = await signUp(ada, { email: "ada@example.com", password: "correct horse battery" });
    expect(signedUp.status).toBe(200);
    await signUp(new TestBrowser(t.auth), { email: "grace@example.com" });
    const expiresAt = new Date(t.now().getTime() + 3600_000);
    await t.db.collection("verifications").insertOne({
      identifier: resetPasswordIdentifier(RESET_TOKEN),
      value: signedUp.body.user.id,
      expiresAt,
      createdAt: t.now(),
      updatedAt: t.now(),
    });
    await writeAsBefore();
    // Before the migration the lookups by _id find nothing: the old cookie is not a session.
    const sessionCookie = ada.cookies.get(SESSION_COOKIE)!;
    expect(
      (
        await new TestBrowser(t.auth).get("/get-session", {
          headers: { cookie: `${SESSION_COOKIE}=${sessionCookie}` },
        })
      ).body,
    ).toBeNull();
    const counts = { sessions: await count("sessions"), accounts: await count("accounts") };

    expect(await t.auth.migrate()).toEqual(["0009-keyed-lookups"]);

    expect(await count("sessions")).toBe(counts.sessions);
    expect(await count("accounts")).toBe(counts.accounts);
    expect(await count("verifications")).toBe(1);
    for (const session of await t.db.collection("sessions").find({}).toArray())
      expect(session._id.equals(keyedId("session", session.token))).toBe(true);
    for (const account of await t.db.collection("accounts").find({}).toArray())
      expect(account._id.equals(keyedId("account", account.providerId, account.accountId))).toBe(true);
    const claims = await t.db.collection("emailClaims").find({}).sort({ _id: 1 }).toArray();
    expect(claims.map((claim) => claim._id)).toEqual(["ada@example.com", "grace@example.com"]);
    expect(await indexNames("sessions")).not.toContain("token_unique");
    expect(await indexNames("accounts")).not.toContain("provider_account_unique");
    expect(await indexNames("verifications")).toEqual(expect.arrayContaining(["identifier"]));
    expect(await indexNames("verifications")).not.toContain("identifier_unique");

    expect((await ada.get("/get-session")).body).toMatchObject({ user: { email: "ada@example.com" } });
    const signIn = await new TestBrowser(t.auth).post("/sign-in/email", {
      email: "grace@example.com",
      password: "correct horse battery",
    });
    expect(signIn.status).toBe(200);
    const reset = await new TestBrowser(t.auth).post("/reset-password", {
      token: RESET_TOKEN,
      newPassword: "a new password 1",
    });
    expect(reset).toMatchObject({ status: 200, body: { status: true } });
    // The address stays taken: a second sign-up with it is refused, nothing is added.
    const users = await count("users");
    const again = await signUp(new TestBrowser(t.auth), { email: "ada@example.com" });
    expect(again.status).toBe(422);
    expect(await count("users")).toBe(users);
  });

  it("is idempotent, and a run cut between copy and delete is finished by the next one", async () => {
    t = await createTestAuth();
    await signUp(new TestBrowser(t.auth), { email: "ada@example.com" });
    await writeAsBefore();
    // A crash after the copies: the keyed copy exists beside the old document.
    const old = (await t.db.collection("sessions").findOne({}))!;
    await t.db.collection("sessions").dropIndex("token_unique");
    await t.db.collection("sessions").insertOne({ ...old, _id: keyedId("session", old.token) });
    await keyedLookups.up(t.auth.context.collections, t.now(), coreMigrationSteps);
    const after = await t.db.collection("sessions").find({}).toArray();
    expect(after.map((doc) => doc._id.toHexString())).toEqual([keyedId("session", old.token).toHexString()]);
    const snapshot = async () => ({
      sessions: await t.db.collection("sessions").find({}).sort({ _id: 1 }).toArray(),
      accounts: await t.db.collection("accounts").find({}).sort({ _id: 1 }).toArray(),
      claims: await t.db.collection("emailClaims").find({}).sort({ _id: 1 }).toArray(),
    });
    const first = await snapshot();
    await keyedLookups.up(t.auth.context.collections, t.now(), coreMigrationSteps);
    expect(await snapshot()).toEqual(first);
  });
});
