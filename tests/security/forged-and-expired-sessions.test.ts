import { createHmac, randomBytes } from "node:crypto";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { CACHE_COOKIE, SESSION_COOKIE, signUpUser } from "#test/browser.ts";
import { TEST_SECRET, type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import {
  expectCatalogueError,
  expectNoSessionIssued,
  PASSWORD,
  sendRaw,
  snapshotDatabase,
} from "./helpers.ts";

/** docs/security.mds asserted here are named in a comment beside each test; the map of where
 * every row of the set is asserted is at the top of injection-and-input-limits.test.ts. */

const open = useFreshTestAuth();

const signedUp = (t: TestAuth, email: string, password = PASSWORD) => signUpUser(t, { email, password });

const userDoc = (t: TestAuth, id: string) => t.db.collection("users").findOne({ _id: new ObjectId(id) });

describe("sessions that must not authenticate", () => {
  // matrix D6
  it("a forged session_data claiming role admin (empty, random, alg:none or empty-secret signature) is ignored; role stays user; list-users 403", async () => {
    const t = await open({ session: { cookieCache: { enabled: true } } });
    const ada = await signedUp(t, "ada@example.com");
    const genuine = decodeURIComponent(ada.browser.cookies.get(CACHE_COOKIE)!);
    const signedCookie = decodeURIComponent(ada.browser.cookies.get(SESSION_COOKIE)!);
    const text = Buffer.from(genuine.slice(0, genuine.lastIndexOf(".")), "base64url").toString("utf8");
    const newline = text.indexOf("\n");
    const meta = JSON.parse(text.slice(0, newline)) as unknown[];
    const api = JSON.parse(text.slice(newline + 1)) as { user: Record<string, unknown> };
    // The claim in both places a cache could carry it: the API user and the meta line's user fields.
    const forgedMeta = [meta[0], meta[1], meta[2] ?? {}, { ...((meta[3] as object) ?? {}), role: "admin" }];
    const body = Buffer.from(
      `${JSON.stringify(forgedMeta)}\n${JSON.stringify({ ...api, user: { ...api.user, role: "admin" } })}`,
    ).toString("base64url");
    const emptySecretMac = createHmac("sha256", "")
      .update(`cookie-cache:${signedCookie.length}:${signedCookie}:${body}`)
      .digest("base64url");
    const algNone = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${body}.`;
    const forgeries = [
      `${body}.`,
      `${body}.${randomBytes(32).toString("base64url")}`,
      algNone,
      `${body}.${emptySecretMac}`,
    ];
    const admin = await signedUp(t, "admin@example.com");
    await t.db.collection("users").updateOne({ _id: new ObjectId(admin.id) }, { $set: { role: "admin" } });
    expect((await admin.browser.get("/admin/list-users")).status).toBe(200); // control: the route works
    const adaBefore = await userDoc(t, ada.id);
    for (const forged of forgeries) {
      ada.browser.cookies.set(CACHE_COOKIE, encodeURIComponent(forged));
      const session = await ada.browser.get<{ user: Record<string, unknown> }>("/get-session");
      expect(session.status).toBe(200);
      expect(session.body.user.id).toBe(ada.id); // answered from the database
      expect(session.body.user.role).not.toBe("admin");
      ada.browser.cookies.set(CACHE_COOKIE, encodeURIComponent(forged));
      const list = await ada.browser.get("/admin/list-users");
      expectCatalogueError(list, 403, "RESOURCE_ACCESS_NOT_ALLOWED", "not allowed to access resource");
    }
    const after = await userDoc(t, ada.id);
    expect(after).toEqual(adaBefore);
    expect(after?.role ?? "user").toBe("user"); // no stored role means the default role, user
    // Positive control: the same body with the real secret's MAC is taken as signed, so the
    // forgeries above were refused for their signatures, not for a malformed body.
    const realMac = createHmac("sha256", TEST_SECRET)
      .update(`cookie-cache:${signedCookie.length}:${signedCookie}:${body}`)
      .digest("base64url");
    ada.browser.cookies.set(CACHE_COOKIE, encodeURIComponent(`${body}.${realMac}`));
    const signed = await ada.browser.get<{ user: Record<string, unknown> }>("/get-session");
    expect(signed.body.user.role).toBe("admin");
  });

  // matrix D9
  it("a session whose expiresAt is set in the past in the database answers null, clears the cookies and is deleted, not refreshed", async () => {
    const t = await open();
    const ada = await signedUp(t, "ada@example.com");
    const signed = decodeURIComponent(ada.browser.cookies.get(SESSION_COOKIE)!);
    const token = signed.slice(0, signed.lastIndexOf("."));
    const past = new Date(t.now().getTime() - 1000);
    await t.db.collection("sessions").updateOne({ token }, { $set: { expiresAt: past } });
    const res = await ada.browser.get("/get-session");
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const cleared = res.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    expect(cleared).toMatch(/^tessera\.session_token=;.*Max-Age=0/i);
    expect(await t.db.collection("sessions").findOne({ token })).toBeNull();
    expect(await t.db.collection("sessions").countDocuments({ userId: new ObjectId(ada.id) })).toBe(0);
  });

  // matrix D13
  it("(no Bearer support) a cookie of A with Authorization: Bearer of B is A's session only; the Bearer alone is no session", async () => {
    const t = await open();
    const a = await signedUp(t, "a@example.com");
    const b = await signedUp(t, "b@example.com");
    const bSigned = decodeURIComponent(b.browser.cookies.get(SESSION_COOKIE)!);
    const bToken = bSigned.slice(0, bSigned.lastIndexOf("."));
    const before = await snapshotDatabase(t.db);
    for (const bearer of [bToken, bSigned]) {
      const both = await a.browser.get<{ user: { id: string }; session: { userId: string } }>(
        "/get-session",
        {
          headers: { authorization: `Bearer ${bearer}` },
        },
      );
      expect(both.status).toBe(200);
      expect(both.body.user.id).toBe(a.id);
      expect(both.body.session.userId).toBe(a.id);
      const alone = await sendRaw(t.auth, "GET", "/get-session", {
        headers: { authorization: `Bearer ${bearer}` },
      });
      expect(alone.status).toBe(200);
      expect(alone.json ?? JSON.parse(alone.text)).toBeNull();
      expectNoSessionIssued(alone.headers);
      const update = await sendRaw(t.auth, "POST", "/update-user", {
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Hijacked" }),
      });
      expectCatalogueError(update, 401, "UNAUTHORIZED", "unauthorized");
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
    expect((await userDoc(t, b.id))?.name).not.toBe("Hijacked");
  });
});
