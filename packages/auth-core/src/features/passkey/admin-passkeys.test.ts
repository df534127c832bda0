import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { auditEvents, FORBIDDEN, useAdminCast } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { newAuthenticator, PASSKEY_ERR, registerPasskey, signInWithPasskey } from "#test/passkey.ts";
import { createOperatorApi } from "../../operator.ts";

/** The admin's view of a user's passkeys, and the audited removal of one. */
const cast = useAdminCast();

async function userWithPasskey() {
  const authenticator = newAuthenticator();
  const registered = await registerPasskey(cast.user.browser, authenticator, { name: "Phone" });
  expect(registered.status).toBe(200);
  return { authenticator, passkeyId: registered.body.id as string };
}

describe("/admin/list-user-passkeys", () => {
  it("lists a user's passkeys to an admin, and to nobody else", async () => {
    const { passkeyId } = await userWithPasskey();
    const listed = await cast.admin.browser.post("/admin/list-user-passkeys", { userId: cast.user.id });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ passkeys: [{ id: passkeyId, name: "Phone", userId: cast.user.id }] });
    const byUser = await cast.user.browser.post("/admin/list-user-passkeys", { userId: cast.user.id });
    expect(byUser.status).toBe(403);
    expect(byUser.body).toEqual(FORBIDDEN);
    const unknown = await cast.admin.browser.post("/admin/list-user-passkeys", {
      userId: new ObjectId().toHexString(),
    });
    expect(unknown.status).toBe(404);
  });
});

describe("/admin/remove-user-passkey", () => {
  it("removes the passkey, records who did it, and the passkey signs nobody in", async () => {
    const { authenticator, passkeyId } = await userWithPasskey();
    const res = await cast.admin.browser.post("/admin/remove-user-passkey", {
      userId: cast.user.id,
      passkeyId,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await cast.t.db.collection("passkeys").countDocuments({})).toBe(0);
    const events = await auditEvents(cast.t, { action: "passkey.remove" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: new ObjectId(cast.admin.id),
      subjectId: new ObjectId(cast.user.id),
      details: { passkeyId, name: "Phone", credentialID: authenticator.credentialID },
    });
    const signIn = await signInWithPasskey(new TestBrowser(cast.t.auth), authenticator);
    expect(signIn.status).toBe(401);
  });

  it("answers 404 for a passkey of another user and removes nothing, audits nothing", async () => {
    const { passkeyId } = await userWithPasskey();
    const res = await cast.admin.browser.post("/admin/remove-user-passkey", {
      userId: cast.admin.id,
      passkeyId,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PASSKEY_ERR.NOT_FOUND);
    expect(await cast.t.db.collection("passkeys").countDocuments({})).toBe(1);
    expect(await auditEvents(cast.t, { action: "passkey.remove" })).toHaveLength(0);
  });

  it("is refused to a user who is not an admin", async () => {
    const { passkeyId } = await userWithPasskey();
    const res = await cast.user.browser.post("/admin/remove-user-passkey", {
      userId: cast.user.id,
      passkeyId,
    });
    expect(res.status).toBe(403);
    expect(await cast.t.db.collection("passkeys").countDocuments({})).toBe(1);
  });
});

describe("the operator API (tessera CLI)", () => {
  it("lists and removes a user's passkeys, audited with the operator's name", async () => {
    const { passkeyId } = await userWithPasskey();
    const operator = createOperatorApi(cast.t.auth, "cli:alice");
    const listed = await operator.adminListUserPasskeys({ body: { userId: cast.user.id } });
    expect(listed.data.passkeys.map((passkey) => passkey.id)).toEqual([passkeyId]);
    await operator.adminRemoveUserPasskey({ body: { userId: cast.user.id, passkeyId } });
    expect(await cast.t.db.collection("passkeys").countDocuments({})).toBe(0);
    const events = await auditEvents(cast.t, { action: "passkey.remove" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: "cli:alice", subjectId: new ObjectId(cast.user.id) });
  });
});
