import { ObjectId } from "mongodb";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import type { ReceivedDelivery } from "#test/webhook-receiver.ts";
import { registerEndpoint, storeEvents, useWebhookBed, verifyAt, waitFor } from "#test/webhooks.ts";
import { insertAttemptedDeliveries } from "./store.ts";

/**
 * Webhook delivery as a receiver sees it (docs/security.md "Webhooks"): a real HTTP receiver on
 * 127.0.0.1 verifies every delivery with the standardwebhooks package, as an app would.
 */

const bed = useWebhookBed();

/** Verifies a received delivery as the receiver would, its clock at `now`. */
function verify(secret: string, delivery: ReceivedDelivery, now: Date): unknown {
  return verifyAt(now, () => new Webhook(secret).verify(delivery.body, delivery.headers));
}

describe("webhook delivery", { timeout: 90_000 }, () => {
  it("delivers a stored event once, with Standard Webhooks headers and the event as its body", async () => {
    const { t, admin } = await bed.open();
    const receiver = await bed.receiver();
    const { id, secret } = await registerEndpoint(admin, { url: receiver.url });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [event] = await storeEvents(t, [{ type: "user.created", data: { email: "ada@example.com" } }]);
    const [got] = await receiver.waitForDelivered(1);
    const body = {
      id: event!._id,
      type: "user.created",
      timestamp: event!.createdAt.toISOString(),
      organizationId: null,
      userId: event!.userId,
      data: { email: "ada@example.com" },
    };
    expect(got!.id).toBe(`msg_${event!._id.slice(4)}_${id}`);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(got!.signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(JSON.parse(got!.body)).toEqual(body);
    expect(verify(secret, got!, t.now())).toEqual(body);
    const row = await waitFor(
      () => t.db.collection("webhookDeliveries").findOne({ _id: got!.id as never }),
      (doc) => doc?.status === "delivered",
    );
    expect(row!.attempts).toEqual([
      { at: expect.any(Date), durationMs: expect.any(Number), statusCode: 204, error: null },
    ]);
    expect(row!.lease).toBeNull();
    // webhook-timestamp: the attempt's time, in seconds.
    expect(got!.timestamp).toBe(String(Math.floor(row!.attempts[0].at.getTime() / 1000)));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.received).toHaveLength(1);
  });

  it("deliveries and their claims go with their events after events.retentionDays; a newer one stays", async () => {
    const { t, admin } = await bed.open();
    const receiver = await bed.receiver();
    await registerEndpoint(admin, { url: receiver.url });
    await storeEvents(t, [{ type: "user.created" }]);
    const [old] = await receiver.waitForDelivered(1);
    // Recorded as delivered before the clock jumps: a lease still held across 29 days would lapse
    // and the old delivery would be sent again.
    await waitFor(
      () => t.db.collection("webhookDeliveries").findOne({ _id: old!.id as never }),
      (doc) => doc?.status === "delivered",
    );
    t.advance(29 * 86_400);
    await storeEvents(t, [{ type: "user.updated" }]);
    const recent = (await receiver.waitForDelivered(2)).find((got) => got.id !== old!.id);
    await waitFor(
      () => t.db.collection("webhookDeliveries").countDocuments({ status: "delivered" }),
      (count) => count === 2,
    );
    const claimsOf = (id: string) =>
      t.db.collection("webhookClaims").countDocuments({ _id: new RegExp(`^${id}\\|`) as never });
    expect(await claimsOf(old!.id)).toBeGreaterThan(0);
    t.advance(2 * 86_400);
    await t.auth.context.collections.eventHub.settle();
    expect(await t.auth.cleanup()).toMatchObject({ webhookDeliveries: 1 });
    const left = await t.db.collection("webhookDeliveries").find({}).toArray();
    expect(left.map((row) => row._id)).toEqual([recent!.id]);
    expect(await claimsOf(old!.id)).toBe(0);
    expect(await claimsOf(recent!.id)).toBeGreaterThan(0);
  });

  it("a sign-up's user.created event reaches an endpoint registered before it", async () => {
    const { t, admin } = await bed.open();
    const receiver = await bed.receiver();
    const { secret } = await registerEndpoint(admin, { url: receiver.url, eventTypes: ["user.created"] });
    const signedUp = await signUpPerson(t, "grace");
    const [got] = await receiver.waitForDelivered(1);
    const body = verify(secret, got!, t.now()) as { type: string; userId: string; data: { email: string } };
    expect(body).toMatchObject({
      type: "user.created",
      userId: signedUp.id,
      data: { email: "grace@example.com" },
    });
  });

  it("an endpoint receives only its event types and, for an organization, only that organization's events", async () => {
    const { t, admin } = await bed.open();
    const receiver = await bed.receiver();
    await registerEndpoint(admin, { url: receiver.url, eventTypes: ["user.deleted"] });
    await storeEvents(t, [{ type: "user.created" }, { type: "user.deleted" }, { type: "session.created" }]);
    const delivered = await receiver.waitForDelivered(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(delivered[0]!.body).type).toBe("user.deleted");
  });

  it("during a rotation both secrets verify each delivery; 24 hours later only the new one does", async () => {
    const { t, admin } = await bed.open({}, { frozen: true });
    const receiver = await bed.receiver();
    const { id, secret: oldSecret } = await registerEndpoint(admin, { url: receiver.url });
    const rotated = await admin.post<{ secret: string; endpoint: { previousSecretExpiresAt: string } }>(
      "/webhooks/rotate-secret",
      { endpointId: id },
    );
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.endpoint.previousSecretExpiresAt).toBe(
      new Date(t.now().getTime() + 86_400_000).toISOString(),
    );
    await storeEvents(t, [{ type: "user.updated" }]);
    const [during] = await receiver.waitForDelivered(1);
    expect(during!.signature.split(" ")).toHaveLength(2);
    expect(verify(oldSecret, during!, t.now())).toBeTruthy();
    expect(verify(newSecret, during!, t.now())).toBeTruthy();

    t.advance(86_400);
    await storeEvents(t, [{ type: "user.updated" }]);
    const after = (await receiver.waitForDelivered(2))[1]!;
    expect(after.signature.split(" ")).toHaveLength(1);
    expect(verify(newSecret, after, t.now())).toBeTruthy();
    expect(() => verify(oldSecret, after, t.now())).toThrow("No matching signature found");
  });

  it("two instances on one database send every delivery once", async () => {
    // A generous timeout: on a loaded machine a 204 that arrives late is a failed attempt, and its
    // retry a second send of the same id (at-least-once), which this test is not about.
    const webhooks = { enabled: true, pollInterval: 30, attemptTimeout: 5000 };
    const { t, admin } = await bed.open({ webhooks });
    const other = bed.sibling(t, { webhooks });
    const receiver = await bed.receiver();
    await registerEndpoint(admin, { url: receiver.url });
    for (let round = 0; round < 4; round++) {
      await storeEvents(
        t,
        Array.from({ length: 10 }, () => ({ type: "user.updated" })),
        t.auth,
      );
      await storeEvents(
        t,
        Array.from({ length: 10 }, () => ({ type: "user.updated" })),
        other,
      );
    }
    const delivered = await receiver.waitForDelivered(80, 40_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(new Set(delivered.map((entry) => entry.id)).size).toBe(80);
    expect(receiver.received).toHaveLength(80);
    const rows = await t.db.collection("webhookDeliveries").find({}).toArray();
    expect(rows.map((row) => row.attempts.length)).toEqual(Array(80).fill(1));
  });

  it("a delivery leased by an instance that died is sent by another once the lease ends, not before", async () => {
    const { t, admin } = await bed.open({}, { frozen: true });
    const receiver = await bed.receiver();
    const { id, secret } = await registerEndpoint(admin, { url: receiver.url });
    const now = t.now();
    // What a killed instance leaves behind: a due delivery it claimed until a minute from now.
    const until = new Date(now.getTime() + 60_000);
    await t.db
      .collection("webhookClaims")
      .insertOne({ _id: "msg_killed|0" as never, owner: "a-killed-instance", until });
    await t.db.collection("webhookDeliveries").insertOne({
      _id: "msg_killed" as never,
      endpointId: new (await import("mongodb")).ObjectId(id),
      organizationId: null,
      eventId: "evt_killed",
      eventType: "user.created",
      body: '{"type":"user.created"}',
      status: "pending",
      attempts: [],
      failures: 0,
      nextAttemptAt: now,
      lease: { owner: "a-killed-instance", until },
      claims: 1,
      createdAt: now,
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(receiver.received).toHaveLength(0);
    t.advance(60);
    const [got] = await receiver.waitForDelivered(1);
    expect(got!.id).toBe("msg_killed");
    expect(verify(secret, got!, t.now())).toEqual({ type: "user.created" });
    const row = await waitFor(
      () => t.db.collection("webhookDeliveries").findOne({ _id: "msg_killed" as never }),
      (doc) => doc?.status === "delivered",
    );
    expect(row!.lease).toBeNull();
  });

  it("a delivery a killed instance claimed before storing it, then stored by a sweep, is sent once its claim ends, not before", async () => {
    const { t, admin } = await bed.open({}, { frozen: true });
    const receiver = await bed.receiver();
    const { id } = await registerEndpoint(admin, { url: receiver.url });
    const now = t.now();
    // The fresh path claims `<id>|0` before the row exists; the instance died before storing it,
    // and a sweep stored the row (no lease on it, no claim counted).
    await t.db.collection("webhookClaims").insertOne({
      _id: "msg_swept|0" as never,
      owner: "a-killed-instance",
      until: new Date(now.getTime() + 60_000),
    });
    await t.db.collection("webhookDeliveries").insertOne(pendingRow("msg_swept", id, now));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(receiver.received).toHaveLength(0);
    t.advance(60);
    const [got] = await receiver.waitForDelivered(1);
    expect(got!.id).toBe("msg_swept");
    const row = await waitFor(
      () => t.db.collection("webhookDeliveries").findOne({ _id: "msg_swept" as never }),
      (doc) => doc?.status === "delivered",
    );
    expect(row!.attempts).toHaveLength(1);
    expect(row!.claims).toBe(2);
    expect(receiver.received).toHaveLength(1);
  });

  it("a first attempt lands on the row a sweep stored meanwhile, and not on one another instance took over", async () => {
    const { t, admin } = await bed.open({ webhooks: { enabled: true, worker: false } }, { frozen: true });
    const { id } = await registerEndpoint(admin, { url: "http://127.0.0.1:9/hooks" });
    const now = t.now();
    const rows = t.db.collection("webhookDeliveries");
    await rows.insertMany([
      pendingRow("msg_swept", id, now),
      { ...pendingRow("msg_taken", id, now), claims: 2 },
    ]);
    const attempt = { at: now, durationMs: 3, statusCode: 204, error: null };
    const attempted = (_id: string) => ({
      ...pendingRow(_id, id, now),
      status: "delivered" as const,
      nextAttemptAt: null,
      attempts: [attempt],
      claims: 1,
    });
    const recorded = await insertAttemptedDeliveries(t.auth.context.collections, [
      attempted("msg_swept"),
      attempted("msg_taken"),
      attempted("msg_new"),
    ]);
    expect(recorded).toEqual([true, false, true]);
    const byId = new Map((await rows.find({}).toArray()).map((row) => [row._id as unknown as string, row]));
    expect(byId.get("msg_swept")).toMatchObject({ status: "delivered", claims: 1, attempts: [attempt] });
    expect(byId.get("msg_taken")).toMatchObject({ status: "pending", claims: 2, attempts: [] });
    expect(byId.get("msg_new")).toMatchObject({ status: "delivered", claims: 1, attempts: [attempt] });
  });
});

/** A due delivery row as fan-out stores it. */
function pendingRow(id: string, endpointId: string, now: Date) {
  return {
    _id: id as never,
    endpointId: new ObjectId(endpointId),
    organizationId: null,
    eventId: `evt_${id}`,
    eventType: "user.created",
    body: '{"type":"user.created"}',
    status: "pending" as const,
    attempts: [] as unknown[],
    failures: 0,
    nextAttemptAt: now,
    lease: null,
    claims: 0,
    createdAt: now,
  };
}
