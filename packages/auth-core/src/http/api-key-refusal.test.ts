import { describe, expect, it } from "vitest";
import { createKey, signedIn } from "#test/api-key.ts";
import { TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/**
 * run-endpoint.ts: an endpoint that refuses an API-key caller (sensitive, fresh-session) refuses
 * before the key is read, so the refused call spends neither a use nor a rate-limit hit.
 */
const { t, openAuth } = useTestAuthPerTest();

describe("an API key refused by the endpoint spends nothing", () => {
  it("three refused /change-password calls leave a key with 3 uses and 3 hits per window intact", async () => {
    await openAuth({ apiKey: { enableSessionForAPIKeys: true } });
    const { userId } = await signedIn(t);
    const created = await createKey(t, {
      userId,
      remaining: 3,
      rateLimitEnabled: true,
      rateLimitMax: 3,
      rateLimitTimeWindow: 86_400_000,
    });
    const client = new TestBrowser(t.auth, null);
    const headers = { "x-api-key": created.key };
    const accounts = await t.db.collection("accounts").find({}).toArray();
    for (let i = 0; i < 3; i++) {
      const res = await client.post(
        "/change-password",
        { currentPassword: "correct horse battery", newPassword: "another horse battery" },
        { headers },
      );
      expect({ status: res.status, body: res.body }).toEqual({
        status: 403,
        body: { code: "NOT_AUTHORIZED", message: "Not authorized" },
      });
    }
    const listed = await client.get("/list-sessions", { headers });
    expect(listed.status).toBe(403);
    expect(await t.db.collection("apiKeyUses").countDocuments()).toBe(0);
    expect(await t.db.collection("accounts").find({}).toArray()).toEqual(accounts);
    // All three uses are still there for an endpoint that accepts the key; the fourth is refused.
    for (let i = 0; i < 3; i++) {
      expect((await client.post("/update-user", { name: `N${i}` }, { headers })).status).toBe(200);
    }
    const fourth = await client.post("/update-user", { name: "N4" }, { headers });
    expect(fourth.status).toBe(429);
  });
});
