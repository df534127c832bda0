import { describe, expect, it } from "vitest";
import { signUp, TestBrowser } from "#test/browser.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/** docs/decisions/: expired rows are ignored in code and removed by auth.cleanup() — every kind of them. */
const { t, openAuth } = useTestAuthPerTest();

describe("auth.cleanup()", () => {
  it("removes API keys and pending invitations 30 days after they expired, and keeps live, unexpiring and answered ones", async () => {
    await openAuth();
    const owner = new TestBrowser(t.auth);
    expect((await signUp(owner, { email: "owner@example.com" })).status).toBe(200);
    const org = await owner.post<{ id: string }>("/organization/create", { name: "Acme", slug: "acme" });
    expect(org.status).toBe(200);
    const invite = (email: string) =>
      owner.post<{ id: string }>("/organization/invite-member", {
        organizationId: org.body.id,
        email,
        role: "member",
      });
    expect((await invite("pending@example.com")).status).toBe(200);
    const canceled = await invite("canceled@example.com");
    expect(
      (await owner.post("/organization/cancel-invitation", { invitationId: canceled.body.id })).status,
    ).toBe(200);
    expect((await owner.post("/api-key/create", { name: "short", expiresIn: 86400 })).status).toBe(200);
    expect((await owner.post("/api-key/create", { name: "forever" })).status).toBe(200);

    const early = await t.auth.cleanup();
    expect(early).toMatchObject({ apiKeys: 0, invitations: 0 });

    // Expired, but still shown to their owners for 30 days (the key answers API_KEY_EXPIRED).
    t.advance(10 * 86400);
    expect(await t.auth.cleanup()).toMatchObject({ apiKeys: 0, invitations: 0 });
    expect(await t.db.collection("apiKeys").countDocuments()).toBe(2);
    expect(await t.db.collection("invitations").countDocuments()).toBe(2);
    t.advance(30 * 86400);
    const removed = await t.auth.cleanup();
    expect(removed).toMatchObject({ apiKeys: 1, invitations: 1 });
    const keys = await t.db.collection("apiKeys").find().toArray();
    expect(keys.map((key) => key.name)).toEqual(["forever"]);
    const invitations = await t.db.collection("invitations").find().toArray();
    expect(invitations.map((row) => [row.email, row.status])).toEqual([["canceled@example.com", "canceled"]]);
  });
});
