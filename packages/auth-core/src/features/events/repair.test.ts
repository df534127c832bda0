import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { storedEvents } from "#test/events.ts";
import { signIn } from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { newEventId } from "./ids.ts";

/**
 * The repair pass through `auth.cleanup()`: what a crash left between a change and its event — an
 * outbox not relayed, a journaled deletion not completed — is settled (docs/architecture.md).
 */
const { t } = useTestAuthPerTest({ open: "each-test" });

function strandedEvent(type: string, userId: string, at: Date) {
  return { _id: newEventId(at), type, createdAt: at, organizationId: null, userId, data: { userId } };
}

describe("auth.cleanup() repairs events", () => {
  it("stores an outbox's event the relay never stored, once, and empties the outbox when it is old", async () => {
    const { userId } = await signIn(t, "ada");
    await storedEvents(t);
    const event = strandedEvent("user.updated", userId, t.now());
    await t.db
      .collection("users")
      .updateOne({ _id: new ObjectId(userId) }, { $push: { _events: event } } as never);
    t.advance(120);
    const result = await t.auth.cleanup();
    expect(result.repairedEvents).toBe(1);
    expect(await t.db.collection("events").findOne({ _id: event._id } as never)).toEqual(event);
    expect((await t.db.collection("users").findOne({ _id: new ObjectId(userId) }))?._events).toEqual([]);
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
});
