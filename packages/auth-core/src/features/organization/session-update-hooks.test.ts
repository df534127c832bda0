import type { AuthOptions } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import {
  activeOrganizationOf,
  addMember,
  createOrganization,
  errorBody,
  signIn,
} from "#test/organization.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * Review s9 finding 8: setting the active organization (or team) is a session update, so it goes
 * through `hooks.session.update` like every other session write: the `before` hook may refuse
 * (403 SESSION_UPDATE_REFUSED, nothing written) or change the two fields only; the `after` hook sees
 * the stored session, once, and only when the write found the session.
 */
type SessionUpdateHooks = NonNullable<NonNullable<NonNullable<AuthOptions["hooks"]>["session"]>["update"]>;

let t: TestAuth | undefined;
const freshTestAuth = useFreshTestAuth();

/** Ada with two organizations, the second active; hooks behave as `current.hooks` says. */
async function setUp() {
  const current: { hooks: SessionUpdateHooks } = { hooks: {} };
  t = await freshTestAuth({
    hooks: {
      session: {
        update: {
          before: (data) => current.hooks.before?.(data),
          after: (doc) => current.hooks.after?.(doc),
        },
      },
    },
  });
  const ada = await signIn(t, "ada");
  const first = await createOrganization(ada, "first");
  const second = await createOrganization(ada, "second");
  return { t, ada, first, second, current };
}

describe("set-active runs the session update hooks", () => {
  it("a refusing before hook: 403 Session update was refused, the session keeps its organization", async () => {
    const { t, ada, first, second, current } = await setUp();
    const seen: unknown[] = [];
    current.hooks = {
      before: (data) => {
        seen.push(data);
        return false;
      },
      after: (doc) => void seen.push(doc),
    };
    const res = await ada.browser.post("/organization/set-active", { organizationId: first });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(errorBody("SESSION_UPDATE_REFUSED", "Session update was refused"));
    expect(seen).toEqual([{ activeOrganizationId: first, activeTeamId: null }]);
    expect(await activeOrganizationOf(t, ada.userId)).toEqual([second]);
  });

  it("a refused switch after create leaves the new organization stored and the session as it was", async () => {
    const { t, ada, second, current } = await setUp();
    current.hooks = { before: () => false };
    const res = await ada.browser.post<{ id: string }>("/organization/create", {
      name: "Third",
      slug: "third",
    });
    expect(res.status).toBe(200);
    expect(await t.db.collection("organizations").countDocuments({ slug: "third" })).toBe(1);
    expect(await activeOrganizationOf(t, ada.userId)).toEqual([second]);
  });

  it("an accepted write: before sees the change, after sees the stored session, each once", async () => {
    const { t, ada, first, current } = await setUp();
    const before: unknown[] = [];
    const after: Record<string, unknown>[] = [];
    current.hooks = {
      before: (data) => void before.push(data),
      after: (doc) => void after.push(doc as Record<string, unknown>),
    };
    const res = await ada.browser.post("/organization/set-active", { organizationId: first });
    expect(res.status).toBe(200);
    expect(before).toEqual([{ activeOrganizationId: first, activeTeamId: null }]);
    const stored = await t.db.collection("sessions").findOne({ userId: new ObjectId(ada.userId) });
    expect(stored?.activeOrganizationId).toBe(first);
    expect(after).toEqual([stored]);
  });

  it("a before hook can change the active organization, never the session's user or token", async () => {
    const { t, ada, first, second, current } = await setUp();
    const stranger = new ObjectId();
    current.hooks = {
      before: () => ({ data: { activeOrganizationId: second, userId: stranger, token: "stolen" } }),
    };
    const res = await ada.browser.post("/organization/set-active", { organizationId: first });
    expect(res.status).toBe(200);
    const sessions = await t.db.collection("sessions").find({}).toArray();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.userId).toEqual(new ObjectId(ada.userId));
    expect(sessions[0]?.token).not.toBe("stolen");
    expect(sessions[0]?.activeOrganizationId).toBe(second);
  });

  it("a session revoked while the write was on its way: no after hook for a write that found nothing", async () => {
    const { t, ada, first, current } = await setUp();
    const after: unknown[] = [];
    current.hooks = {
      // The session goes between the check and the write (a concurrent sign-out).
      before: async () => void (await t.db.collection("sessions").deleteMany({})),
      after: (doc) => void after.push(doc),
    };
    await ada.browser.post("/organization/set-active", { organizationId: first });
    expect(after).toEqual([]);
    expect(await t.db.collection("sessions").countDocuments()).toBe(0);
  });

  it("clearing the active organization (organizationId null) is refused like any other write", async () => {
    const { t, ada, second, current } = await setUp();
    current.hooks = { before: () => false };
    const res = await ada.browser.post("/organization/set-active", { organizationId: null });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(errorBody("SESSION_UPDATE_REFUSED", "Session update was refused"));
    expect(await activeOrganizationOf(t, ada.userId)).toEqual([second]);
  });
});

describe("docs/decisions/ clears of the active organization report each cleared session", () => {
  it("leaving: the after hook once per session of the leaver, no before hook (a required cascade), others untouched", async () => {
    const { t, ada, second, current } = await setUp();
    const bob = await signIn(t, "bob");
    await addMember(t, second, bob, "member");
    expect((await bob.browser.post("/organization/set-active", { organizationId: second })).status).toBe(200);
    const calls: string[] = [];
    const after: Record<string, unknown>[] = [];
    current.hooks = {
      before: () => {
        calls.push("before");
        return false;
      },
      after: (doc) => void after.push(doc as Record<string, unknown>),
    };
    const res = await bob.browser.post("/organization/leave", { organizationId: second });
    expect(res.status).toBe(200);
    expect(calls).toEqual([]);
    expect(await activeOrganizationOf(t, bob.userId)).toEqual([null]);
    expect(await activeOrganizationOf(t, ada.userId)).toEqual([second]);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      userId: new ObjectId(bob.userId),
      activeOrganizationId: null,
      activeTeamId: null,
    });
  });
});
