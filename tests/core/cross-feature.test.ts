import type { ObjectId } from "mongodb";
import { afterEach, describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import type { TestAuth } from "#test/test-auth.ts";
import { createEnrolled, EMAIL, PASSWORD } from "#test/two-factor.ts";
import { ruleForPath } from "../../packages/auth-core/src/http/rate-limit.ts";

/** Wiring between feature areas merged from separate branches. */

let t: TestAuth | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function createKey(auth: TestAuth, userId: ObjectId): Promise<string> {
  const res = await auth.auth.api.createApiKey({ body: { userId: userId.toHexString(), name: "ci" } });
  return (res.data as { key: string }).key;
}

async function rowsOf(auth: TestAuth, userId: ObjectId) {
  return {
    users: await auth.db.collection("users").countDocuments({ _id: userId }),
    twoFactors: await auth.db.collection("twoFactors").countDocuments({ userId }),
    apiKeys: await auth.db.collection("apiKeys").countDocuments({ userId }),
  };
}

describe("deleting a user removes their second factor and API keys", () => {
  it("POST /delete-user with the password leaves no two-factor secret or API key behind", async () => {
    const enrolled = await createEnrolled({ user: { deleteUser: { enabled: true } } });
    t = enrolled.t;
    await createKey(t, enrolled.userId);
    expect(await rowsOf(t, enrolled.userId)).toEqual({ users: 1, twoFactors: 1, apiKeys: 1 });

    const res = await enrolled.ada.post("/delete-user", { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "User deleted" });
    expect(await rowsOf(t, enrolled.userId)).toEqual({ users: 0, twoFactors: 0, apiKeys: 0 });
  });

  it("a refused deletion (wrong password) keeps both", async () => {
    const enrolled = await createEnrolled({ user: { deleteUser: { enabled: true } } });
    t = enrolled.t;
    await createKey(t, enrolled.userId);
    const res = await enrolled.ada.post("/delete-user", { password: "not the password" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect(await rowsOf(t, enrolled.userId)).toEqual({ users: 1, twoFactors: 1, apiKeys: 1 });
  });
});

describe("GET /get-session with an API key (apiKey.enableSessionForAPIKeys)", () => {
  it("answers the key's user, with no cookie", async () => {
    const enrolled = await createEnrolled({ apiKey: { enableSessionForAPIKeys: true } });
    t = enrolled.t;
    const key = await createKey(t, enrolled.userId);
    const res = await new TestBrowser(t.auth, null).get<{ user: { email: string } } | null>("/get-session", {
      headers: { "x-api-key": key },
    });
    expect(res.status).toBe(200);
    expect(res.body?.user.email).toBe(EMAIL);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("answers the key's own error for a wrong key, and null without a key", async () => {
    const enrolled = await createEnrolled({ apiKey: { enableSessionForAPIKeys: true } });
    t = enrolled.t;
    const wrong = await new TestBrowser(t.auth, null).get("/get-session", {
      headers: { "x-api-key": "not-a-key" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: "API_KEY_INVALID", message: "invalid" });
    const none = await new TestBrowser(t.auth, null).get("/get-session");
    expect(none.status).toBe(200);
    expect(none.body).toBeNull();
  });

  it("ignores the header when the option is off", async () => {
    const enrolled = await createEnrolled();
    t = enrolled.t;
    const key = await createKey(t, enrolled.userId);
    const res = await new TestBrowser(t.auth, null).get("/get-session", { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
  });
});

describe("organization/set-active with an API key", () => {
  it("is refused with 403 Not authorized: a key has no session to make an organization active on", async () => {
    const enrolled = await createEnrolled({ apiKey: { enableSessionForAPIKeys: true } });
    t = enrolled.t;
    const created = await enrolled.ada.post<{ id: string }>("/organization/create", {
      name: "Acme",
      slug: "acme",
    });
    expect(created.status).toBe(200);
    const key = await createKey(t, enrolled.userId);
    const sessionsBefore = await t.db.collection("sessions").find({}).toArray();
    const res = await new TestBrowser(t.auth, null).post(
      "/organization/set-active",
      { organizationId: created.body.id },
      { headers: { "x-api-key": key } },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "NOT_AUTHORIZED", message: "Not authorized" });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await t.db.collection("sessions").find({}).toArray()).toEqual(sessionsBefore);
  });
});

describe("rate limits of the two-factor settings", () => {
  it.each([
    "/two-factor/enable",
    "/two-factor/disable",
    "/two-factor/get-totp-uri",
    "/two-factor/generate-backup-codes",
  ])("%s takes a password, so it has the strict rule (3 per 10 s)", (path) => {
    expect(ruleForPath(path, { window: 10, max: 100, customRules: {} })).toEqual({ window: 10, max: 3 });
  });
});
