import { describe, expect, it } from "vitest";
import { auditEvents, useAdminCast, userDoc } from "#test/admin.ts";

/**
 * The admin area writes users through the same lifecycle hooks as the rest of the core
 * (config/hooks.ts): a hook that refuses makes the admin call fail with a 4xx, changes nothing and
 * leaves no audit event for an action that did not happen.
 */
const { t, admin, user, setUp } = useAdminCast({ open: "by-set-up" });

describe("refusing hooks", () => {
  it("create-user refused by a user create hook: 400 Failed to create user, nothing stored", async () => {
    let refuse = false;
    await setUp({ hooks: { user: { create: { before: () => (refuse ? false : undefined) } } } });
    refuse = true;
    const res = await admin.browser.post("/admin/create-user", { email: "x@example.com", name: "X" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "FAILED_TO_CREATE_USER", message: "Failed to create user" });
    expect(await t.db.collection("users").countDocuments({})).toBe(2);
    expect(await auditEvents(t)).toEqual([]);
  });

  it.each([
    ["/admin/ban-user", (id: string) => ({ userId: id })],
    ["/admin/unban-user", (id: string) => ({ userId: id })],
    ["/admin/set-role", (id: string) => ({ userId: id, role: "admin" })],
    ["/admin/update-user", (id: string) => ({ userId: id, data: { name: "New" } })],
  ])("%s refused by a user update hook: 400 Failed to update user, nothing changed", async (path, body) => {
    await setUp({ hooks: { user: { update: { before: () => false } } } });
    const before = await userDoc(t, user.id);
    const res = await admin.browser.post(path, body(user.id));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "FAILED_TO_UPDATE_USER", message: "Failed to update user" });
    expect(await userDoc(t, user.id)).toEqual(before);
    expect(await t.db.collection("sessions").countDocuments({})).toBe(2);
    expect(await auditEvents(t)).toEqual([]);
  });

  it("remove-user refused by a user delete hook: 403, the user and their sessions stay", async () => {
    await setUp({ hooks: { user: { delete: { before: () => false } } } });
    const res = await admin.browser.post("/admin/remove-user", { userId: user.id });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "DELETE_USER_REFUSED", message: "User deletion was refused" });
    expect(await userDoc(t, user.id)).not.toBeNull();
    expect(await t.db.collection("sessions").countDocuments({})).toBe(2);
    expect(await auditEvents(t)).toEqual([]);
  });
});
