import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUpUser, TestBrowser } from "#test/browser.ts";
import { newAuthenticator, PASSKEY_ERR, registerPasskey } from "#test/passkey.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/** list-user-passkeys, update-passkey, delete-passkey: each user sees and changes only their own. */
const openAuth = useFreshTestAuth();

async function setUp() {
  const t = await openAuth({ user: { deleteUser: { enabled: true } } }, { frozen: true });
  const ada = await signUpUser(t, { email: "ada@example.com" });
  const bob = await signUpUser(t, { email: "bob@example.com" });
  const laptop = await registerPasskey(ada.browser, newAuthenticator(), { name: "Laptop" });
  t.advance(1);
  const phone = await registerPasskey(ada.browser, newAuthenticator({ keyType: "RS256" }), { name: "Phone" });
  return { t, ada, bob, laptopId: laptop.body.id as string, phoneId: phone.body.id as string };
}

const namesOf = async (t: TestAuth, userId: string) =>
  (
    await t.db
      .collection("passkeys")
      .find({ userId: new ObjectId(userId) })
      .toArray()
  ).map((row) => row.name);

describe("list-user-passkeys", () => {
  it("answers the caller's passkeys, oldest first, and nobody else's", async () => {
    const { t, ada, bob, laptopId, phoneId } = await setUp();
    const listed = await ada.browser.get<{ id: string; name: string }[]>("/passkey/list-user-passkeys");
    expect(listed.status).toBe(200);
    expect(listed.body.map((passkey) => [passkey.id, passkey.name])).toEqual([
      [laptopId, "Laptop"],
      [phoneId, "Phone"],
    ]);
    expect((await bob.browser.get("/passkey/list-user-passkeys")).body).toEqual([]);
    const anonymous = await new TestBrowser(t.auth).get("/passkey/list-user-passkeys");
    expect(anonymous.status).toBe(401);
  });
});

describe("update-passkey", () => {
  it("renames the caller's passkey", async () => {
    const { t, ada, laptopId } = await setUp();
    const res = await ada.browser.post("/passkey/update-passkey", { id: laptopId, name: "  Work laptop " });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ passkey: { id: laptopId, name: "Work laptop" } });
    expect(await namesOf(t, ada.id)).toEqual(["Work laptop", "Phone"]);
  });

  it("answers 404 for another user's passkey, a malformed id, and renames nothing", async () => {
    const { t, ada, bob, laptopId } = await setUp();
    for (const id of [laptopId, "nope", new ObjectId().toHexString()]) {
      const res = await bob.browser.post("/passkey/update-passkey", { id, name: "Mine now" });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(PASSKEY_ERR.NOT_FOUND);
    }
    expect(await namesOf(t, ada.id)).toEqual(["Laptop", "Phone"]);
  });

  it("refuses an empty name", async () => {
    const { t, ada, laptopId } = await setUp();
    const res = await ada.browser.post("/passkey/update-passkey", { id: laptopId, name: "   " });
    expect(res.status).toBe(400);
    expect(await namesOf(t, ada.id)).toEqual(["Laptop", "Phone"]);
  });
});

describe("delete-passkey", () => {
  it("deletes the caller's passkey", async () => {
    const { t, ada, laptopId } = await setUp();
    const res = await ada.browser.post("/passkey/delete-passkey", { id: laptopId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true });
    expect(await namesOf(t, ada.id)).toEqual(["Phone"]);
  });

  it("answers 404 for another user's passkey and deletes nothing", async () => {
    const { t, ada, bob, laptopId } = await setUp();
    const res = await bob.browser.post("/passkey/delete-passkey", { id: laptopId });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PASSKEY_ERR.NOT_FOUND);
    expect(await namesOf(t, ada.id)).toEqual(["Laptop", "Phone"]);
  });

  it("refuses to delete the last way to sign in: no password, no provider account, no other passkey", async () => {
    const t = await openAuth({}, { frozen: true });
    const browser = new TestBrowser(t.auth);
    const signedUp = await registerPasskey(browser, newAuthenticator(), {
      query: { email: "grace@example.com", displayName: "Grace" },
    });
    expect(signedUp.status).toBe(200);
    const second = await registerPasskey(browser, newAuthenticator(), { name: "Spare" });
    expect(second.status).toBe(200);
    expect((await browser.post("/passkey/delete-passkey", { id: second.body.id })).status).toBe(200);
    const refused = await browser.post("/passkey/delete-passkey", { id: signedUp.body.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(PASSKEY_ERR.LAST_METHOD);
    expect(
      await t.db.collection("passkeys").countDocuments({ userId: new ObjectId(signedUp.body.user.id) }),
    ).toBe(1);
  });

  it("two deletes racing for a user's last two passkeys never leave none", async () => {
    const t = await openAuth({}, { frozen: true });
    const browser = new TestBrowser(t.auth);
    const first = await registerPasskey(browser, newAuthenticator(), {
      query: { email: "grace@example.com" },
    });
    const second = await registerPasskey(browser, newAuthenticator());
    const answers = await Promise.all(
      [first, second].map((passkey) => browser.post("/passkey/delete-passkey", { id: passkey.body.id })),
    );
    // Whatever the interleaving: each answer says what happened, and one passkey at least is left.
    const deleted = answers.filter((answer) => answer.status === 200).length;
    for (const answer of answers)
      if (answer.status !== 200) expect(answer.body).toEqual(PASSKEY_ERR.LAST_METHOD);
    const left = await t.db
      .collection("passkeys")
      .countDocuments({ userId: new ObjectId(first.body.user.id) });
    expect(left).toBe(2 - deleted);
    expect(left).toBeGreaterThanOrEqual(1);
  });

  it("the user's deletion takes their passkeys", async () => {
    const { t, ada } = await setUp();
    const res = await ada.browser.post("/delete-user", { password: "correct horse battery" });
    expect(res.status).toBe(200);
    expect(await t.db.collection("passkeys").countDocuments({ userId: new ObjectId(ada.id) })).toBe(0);
  });
});
