import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { useAdminCast } from "#test/admin.ts";

/**
 * An impersonation session is the admin's authority: it lives only while that admin exists and is
 * not banned. The sweeps of deletion and ban remove such sessions; one started while they ran (it
 * carries the impersonated user's id, so a sweep by the admin's id can miss it) dies when it is read.
 * The sweeps are bypassed here by editing the admin's row directly, as a lost race would leave it.
 */
const { t, admin, user } = useAdminCast();

async function impersonating() {
  const res = await admin.browser.post("/admin/impersonate-user", { userId: user.id });
  expect(res.status).toBe(200);
  expect((await admin.browser.get<{ user: { id: string } }>("/get-session")).body.user.id).toBe(user.id);
  return { admin, user };
}

describe("impersonation sessions follow their admin", () => {
  it("end when the admin's user row is gone", async () => {
    const { admin } = await impersonating();
    await t.db.collection("users").deleteOne({ _id: new ObjectId(admin.id) });
    expect((await admin.browser.get("/get-session?disableCookieCache=true")).body).toBeNull();
    expect(await t.db.collection("sessions").countDocuments({ impersonatedBy: new ObjectId(admin.id) })).toBe(
      0,
    );
  });

  it("end when the admin is banned", async () => {
    const { admin } = await impersonating();
    await t.db.collection("users").updateOne({ _id: new ObjectId(admin.id) }, { $set: { banned: true } });
    expect((await admin.browser.get("/get-session")).body).toBeNull();
    expect(await t.db.collection("sessions").countDocuments({ impersonatedBy: new ObjectId(admin.id) })).toBe(
      0,
    );
  });

  it("keep working while the admin is active, and leave the user's own sessions alone", async () => {
    const { admin, user } = await impersonating();
    expect((await admin.browser.get<{ user: { id: string } }>("/get-session")).body.user.id).toBe(user.id);
    expect((await user.browser.get<{ user: { id: string } }>("/get-session")).body.user.id).toBe(user.id);
  });
});
