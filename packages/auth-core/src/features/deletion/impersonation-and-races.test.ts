import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { createCast, type Person } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { deleteLinkFrom, GONE, INTACT, PASSWORD, signUpIn, userRows } from "#test/deletion.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

const USER_NOT_FOUND = { code: "USER_NOT_FOUND", message: "User not found" };

let t: TestAuth;
const freshTestAuth = useFreshTestAuth();

/**
 * Delete hooks that count their calls; `before` holds every caller until `racers` of them have
 * arrived (or 3 s passed), so concurrent deletions reach the user row's delete together — the race
 * of review finding s9-2, made deterministic.
 */
function racingHooks(racers: number) {
  const calls = { before: 0, after: [] as string[] };
  let release: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hooks = {
    user: {
      delete: {
        before: async () => {
          calls.before += 1;
          if (calls.before >= racers) release();
          await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 3000))]);
        },
        after: (user: { email: string }) => {
          calls.after.push(user.email);
        },
      },
    },
  };
  return { calls, hooks };
}

describe("deleting an admin ends the impersonation sessions they started", () => {
  let admin: Person;
  let user: Person;

  it("the impersonating browser is signed out and no session impersonatedBy the admin remains", async () => {
    t = await freshTestAuth({ user: { deleteUser: { enabled: true } } });
    ({ admin, user } = await createCast(t));
    const adminId = new ObjectId(admin.id);
    const started = await admin.browser.post("/admin/impersonate-user", { userId: user.id });
    expect(started.status).toBe(200);
    const before = await admin.browser.get<{ session: { impersonatedBy: string } }>("/get-session");
    expect(before.body?.session.impersonatedBy).toBe(admin.id);

    const elsewhere = new TestBrowser(t.auth);
    expect((await elsewhere.post("/sign-in/email", { email: admin.email, password: PASSWORD })).status).toBe(
      200,
    );
    const res = await elsewhere.post("/delete-user", { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "User deleted" });

    const after = await admin.browser.get("/get-session");
    expect(after.status).toBe(200);
    expect(after.body).toBeNull();
    expect(await t.db.collection("sessions").countDocuments({ impersonatedBy: adminId })).toBe(0);
    expect(await userRows(t.db, adminId)).toEqual(GONE);
    // The impersonated user keeps their own account and session.
    expect(await userRows(t.db, new ObjectId(user.id))).toEqual(INTACT);
    expect((await user.browser.get<{ user: { id: string } }>("/get-session")).body?.user.id).toBe(user.id);
  });
});

describe("concurrent deletions of one user", () => {
  it("5 parallel POST /delete-user: one 200, four 404 User not found, the after-hook runs once", async () => {
    const { calls, hooks } = racingHooks(5);
    t = await freshTestAuth({ user: { deleteUser: { enabled: true } }, hooks });
    const ada = new TestBrowser(t.auth);
    const adaId = await signUpIn(t, ada, "ada@example.com");
    const bob = new TestBrowser(t.auth);
    const bobId = await signUpIn(t, bob, "bob@example.com");

    const results = await Promise.all(
      Array.from({ length: 5 }, () => ada.post("/delete-user", { password: PASSWORD })),
    );
    const winners = results.filter((res) => res.status === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.body).toEqual({ success: true, message: "User deleted" });
    const losers = results.filter((res) => res.status !== 200);
    expect(losers.map((res) => res.status)).toEqual([404, 404, 404, 404]);
    for (const res of losers) expect(res.body).toEqual(USER_NOT_FOUND);
    expect(calls.before).toBe(5);
    expect(calls.after).toEqual(["ada@example.com"]);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
    expect(await userRows(t.db, bobId)).toEqual(INTACT);
  });

  it("admin remove-user racing the user's own deletion: one succeeds, the other is 404, one after-hook", async () => {
    const { calls, hooks } = racingHooks(2);
    t = await freshTestAuth({ user: { deleteUser: { enabled: true } }, hooks });
    const { admin, user } = await createCast(t);
    const userId = new ObjectId(user.id);

    const [removed, deleted] = await Promise.all([
      admin.browser.post("/admin/remove-user", { userId: user.id }),
      user.browser.post("/delete-user", { password: PASSWORD }),
    ]);
    const statuses = [removed.status, deleted.status].sort();
    expect(statuses).toEqual([200, 404]);
    expect(removed.status === 200 ? deleted.body : removed.body).toEqual(USER_NOT_FOUND);
    expect(calls.after).toEqual([user.email]);
    expect(await userRows(t.db, userId)).toEqual(GONE);
    // The audit trail records a removal only when the admin's call was the one that removed.
    const audited = await t.db.collection("auditEvents").countDocuments({ action: "user.remove" });
    expect(audited).toBe(removed.status === 200 ? 1 : 0);
    expect(await userRows(t.db, new ObjectId(admin.id))).toMatchObject({ users: 1, sessions: 1 });
  });

  it("two confirmation links clicked at once: one redirects to the callback, the other with error=USER_NOT_FOUND", async () => {
    const { calls, hooks } = racingHooks(2);
    t = await freshTestAuth({
      user: { deleteUser: { enabled: true, sendDeleteAccountVerification: true } },
      hooks,
    });
    const ada = new TestBrowser(t.auth);
    const adaId = await signUpIn(t, ada, "ada@example.com");
    const links = [];
    for (let i = 0; i < 2; i++) {
      const res = await ada.post("/delete-user", { callbackURL: "/bye" });
      expect(res.body).toEqual({ success: true, message: "Verification email sent" });
      links.push(deleteLinkFrom(t.outbox.latestTo("ada@example.com")?.text ?? "").path);
    }
    expect(links[0]).not.toBe(links[1]);

    const results = await Promise.all(links.map((link) => ada.get(link)));
    const locations = results.map((res) => `${res.status} ${res.headers.get("location")}`).sort();
    expect(locations).toEqual(["302 /bye", "302 /bye?error=USER_NOT_FOUND"]);
    expect(calls.after).toEqual(["ada@example.com"]);
    expect(await userRows(t.db, adaId)).toEqual(GONE);
  });
});
