import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { expectCatalogueError } from "./helpers.ts";

/**
 * Matrix D7 and the ban rows: the cookie cache may answer reads for at most its 60 s, but it is not
 * a credential for writes. A state-changing call reads the session row, so a revoked or banned
 * session cannot keep writing, nor keep re-signing a fresh cache for itself through update-user.
 */
const { t, openAuth } = useTestAuthPerTest();

async function setUp() {
  await openAuth({ session: { cookieCache: { enabled: true } } }, { frozen: true });
  const owner = await signUpPerson(t, "ada");
  const thief = new TestBrowser(t.auth);
  for (const [name, value] of owner.browser.cookies) thief.cookies.set(name, value);
  return { owner, thief };
}

async function storedName(id: string): Promise<unknown> {
  return (await t.db.collection("users").findOne({ _id: new ObjectId(id) }))?.name;
}

describe("cookie cache and writes", () => {
  it("refuses update-user from a revoked session at once, and the cache runs out after 60 s", async () => {
    const { owner, thief } = await setUp();
    expect((await owner.browser.post("/revoke-sessions")).status).toBe(200);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
    // Reads may still be served by the signed cache within its 60 s…
    expect((await thief.get("/get-session")).body).not.toBeNull();
    // …writes may not.
    const write = await thief.post("/update-user", { name: "Eve" });
    expectCatalogueError(write, 401, "UNAUTHORIZED", "unauthorized");
    expect(await storedName(owner.id)).toBe("ada");
    t.advance(61);
    expect((await thief.get("/get-session")).body).toBeNull();
  });

  it("does not let a banned user's cached session write", async () => {
    const { owner, thief } = await setUp();
    const admin = await signUpPerson(t, "root", "admin");
    expect((await admin.browser.post("/admin/ban-user", { userId: owner.id })).status).toBe(200);
    const write = await thief.post("/update-user", { name: "Eve" });
    expect(write.status).toBe(401);
    expect(await storedName(owner.id)).toBe("ada");
    t.advance(61);
    expect((await thief.get("/get-session")).body).toBeNull();
  });

  it("does not re-sign a revoked session's cache when its user opens a verification link", async () => {
    await openAuth(
      { session: { cookieCache: { enabled: true } }, emailVerification: { sendOnSignUp: true } },
      { frozen: true },
    );
    const owner = await signUpPerson(t, "ada");
    const thief = new TestBrowser(t.auth);
    for (const [name, value] of owner.browser.cookies) thief.cookies.set(name, value);
    const link = t.outbox.latestTo(owner.email)?.text.match(/https?:\/\/\S*\/verify-email\?\S+/)?.[0];
    if (!link) throw new Error("no verification link in the outbox");
    expect((await owner.browser.post("/revoke-sessions")).status).toBe(200);
    // The mailed link redirects to its callback (302) after verifying.
    const res = await thief.get(link);
    expect(res.status).toBe(302);
    expect(await t.db.collection("users").countDocuments({ emailVerified: true })).toBe(1);
    // The session row is gone: its cookies are cleared, not re-signed for another 60 s.
    expect(thief.cookies.has("tessera.session_data")).toBe(false);
    expect(thief.cookies.has("tessera.session_token")).toBe(false);
    t.advance(61);
    expect((await thief.get("/get-session")).body).toBeNull();
  });

  it("still serves update-user from a live session and re-signs the cache with the new name", async () => {
    const { owner } = await setUp();
    const res = await owner.browser.post("/update-user", { name: "Ada L." });
    expect(res.status).toBe(200);
    expect(await storedName(owner.id)).toBe("Ada L.");
    const session = await owner.browser.get<{ user: { name: string } }>("/get-session");
    expect(session.body.user.name).toBe("Ada L.");
  });
});
