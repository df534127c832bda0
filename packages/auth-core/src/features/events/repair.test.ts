import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { storedEvents } from "#test/events.ts";
import { addMember, createOrganization, signIn } from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { newEventId } from "./ids.ts";
import { OUTBOX_KEEP } from "./store.ts";

/**
 * The repair pass through `auth.cleanup()`: what a crash left between a change and its event — an
 * outbox not relayed, a journaled deletion not completed — is settled (docs/architecture.md).
 */
const { t } = useTestAuthPerTest({ open: "each-test" });

/** The member.removed events stored for one member. */
async function removalsOf(memberId: string) {
  await t.auth.context.collections.eventHub.settle();
  return t.db.collection("events").countDocuments({ type: "member.removed", "data.memberId": memberId });
}

function strandedEvent(type: string, userId: string, at: Date) {
  return { _id: newEventId(at), type, createdAt: at, organizationId: null, userId, data: { userId } };
}

describe("auth.cleanup() repairs events", () => {
  it("stores an outbox's event the relay never stored, once; keeps a short outbox, empties a long one", async () => {
    const { userId, browser } = await signIn(t, "ada");
    await storedEvents(t);
    const user = { _id: new ObjectId(userId) };
    const event = strandedEvent("user.updated", userId, t.now());
    await t.db.collection("users").updateOne(user, { $push: { _events: event } } as never);
    t.advance(120);
    const result = await t.auth.cleanup();
    expect(result.repairedEvents).toBe(1);
    expect(await t.db.collection("events").findOne({ _id: event._id } as never)).toEqual(event);
    const outbox = (await t.db.collection("users").findOne(user))?._events as { _id: string }[];
    expect(outbox.map((kept) => kept._id)).toContain(event._id);
    expect(outbox.length).toBeLessThanOrEqual(OUTBOX_KEEP);
    expect((await t.auth.cleanup()).repairedEvents).toBe(0);
    // Changed past what an outbox keeps: its settled events go, each stored once.
    for (let i = 0; i <= OUTBOX_KEEP; i++)
      expect((await browser.post("/update-user", { name: `Ada ${i}` })).status).toBe(200);
    await storedEvents(t);
    const long = (await t.db.collection("users").findOne(user))?._events as unknown[] | undefined;
    expect(long?.length).toBeGreaterThan(OUTBOX_KEEP);
    t.advance(120);
    expect((await t.auth.cleanup()).repairedEvents).toBe(0);
    expect((await t.db.collection("users").findOne(user))?._events).toEqual([]);
    expect(await t.db.collection("events").countDocuments({ type: "user.updated", userId } as never)).toBe(
      OUTBOX_KEEP + 2,
    );
  });

  it("a document changed often has its stored events pulled by its writer; none not yet stored is lost", async () => {
    const { userId, browser } = await signIn(t, "ada");
    const user = { _id: new ObjectId(userId) };
    const outboxOf = async () =>
      ((await t.db.collection("users").findOne(user))?._events ?? []) as { _id: string }[];
    // Renamed 12 times within the hub's gathering: nothing is stored yet, so nothing may be pulled.
    for (let i = 0; i < 12; i++)
      expect((await browser.post("/update-user", { name: `Ada ${i}` })).status).toBe(200);
    expect((await outboxOf()).length).toBeGreaterThan(12);
    await storedEvents(t);
    // Then renamed with each change stored before the next: the outbox stays short.
    for (let i = 12; i < 24; i++) {
      expect((await browser.post("/update-user", { name: `Ada ${i}` })).status).toBe(200);
      await storedEvents(t);
    }
    expect((await outboxOf()).length).toBeLessThanOrEqual(2 * OUTBOX_KEEP + 1);
    const renames = await t.db.collection("events").countDocuments({ type: "user.updated", userId } as never);
    expect(renames).toBe(24);
    t.advance(120);
    expect((await t.auth.cleanup()).repairedEvents).toBe(0);
  });

  it("settles a journaled deletion: the event of a row gone is stored, that of a row still there dropped", async () => {
    const { userId } = await signIn(t, "ada");
    const [session] = await t.db.collection("sessions").find({}).toArray();
    const goneId = new ObjectId();
    const [gone, kept] = [
      strandedEvent("session.revoked", userId, t.now()),
      strandedEvent("session.revoked", userId, t.now()),
    ];
    await t.db.collection("pendingDeletions").insertOne({
      _id: new ObjectId(),
      kind: "rows",
      targetId: goneId,
      user: null,
      createdAt: t.now(),
      _events: [gone, kept],
      source: "sessions",
      targetIds: [goneId, session!._id],
    });
    t.advance(120);
    await t.auth.cleanup();
    expect(await t.db.collection("events").countDocuments({ _id: gone._id } as never)).toBe(1);
    expect(await t.db.collection("events").countDocuments({ _id: kept._id } as never)).toBe(0);
    expect(await t.db.collection("pendingDeletions").countDocuments()).toBe(0);
  });

  it("a removal cut by a crash before its row went, then retried, is told once: the retry takes the row's claim over", async () => {
    const ada = await signIn(t, "ada");
    const bob = await signIn(t, "bob");
    const organizationId = await createOrganization(ada, "acme");
    const memberId = await addMember(t, organizationId, bob, "member");
    // The first request journaled the removal and died before deleting the row.
    const cut = {
      ...strandedEvent("member.removed", bob.userId, t.now()),
      organizationId,
      data: { memberId, organizationId, userId: bob.userId, role: "member" },
    };
    await t.db.collection("pendingDeletions").insertOne({
      _id: new ObjectId(),
      kind: "rows",
      targetId: new ObjectId(memberId),
      user: null,
      createdAt: t.now(),
      _events: [cut],
      source: "members",
      targetIds: [new ObjectId(memberId)],
    });
    const retried = await ada.browser.post("/organization/remove-member", {
      organizationId,
      memberIdOrEmail: bob.email,
    });
    expect(retried.status).toBe(200);
    expect(await removalsOf(memberId)).toBe(1);
    expect(await t.db.collection("pendingDeletions").countDocuments()).toBe(0);
    t.advance(120);
    await t.auth.cleanup();
    expect(await removalsOf(memberId)).toBe(1);
  });

  it("two removals of one member at once: one event, no entry left", async () => {
    const ada = await signIn(t, "ada");
    const bob = await signIn(t, "bob");
    const organizationId = await createOrganization(ada, "acme");
    const memberId = await addMember(t, organizationId, bob, "member");
    const answers = await Promise.all(
      [0, 1].map(() =>
        ada.browser.post("/organization/remove-member", { organizationId, memberIdOrEmail: bob.email }),
      ),
    );
    expect(answers.map((res) => res.status)).toContain(200);
    expect(await removalsOf(memberId)).toBe(1);
    expect(await t.db.collection("pendingDeletions").countDocuments()).toBe(0);
  });

  it("two cut removals of one row, both left to the repair pass: the older tells it, once", async () => {
    const { userId } = await signIn(t, "ada");
    const goneId = new ObjectId();
    const [first, second] = [
      strandedEvent("session.revoked", userId, t.now()),
      strandedEvent("session.revoked", userId, t.now()),
    ];
    for (const event of [first, second]) {
      await t.db.collection("pendingDeletions").insertOne({
        _id: new ObjectId(),
        kind: "rows",
        targetId: goneId,
        user: null,
        createdAt: t.now(),
        _events: [event],
        source: "sessions",
        targetIds: [goneId],
      });
      t.advance(1);
    }
    t.advance(120);
    expect((await t.auth.cleanup()).repairedEvents).toBe(1);
    expect(await t.db.collection("events").countDocuments({ _id: first._id } as never)).toBe(1);
    expect(await t.db.collection("events").countDocuments({ _id: second._id } as never)).toBe(0);
    expect(await t.db.collection("pendingDeletions").countDocuments()).toBe(0);
  });
});
