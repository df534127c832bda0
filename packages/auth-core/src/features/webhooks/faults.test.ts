import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { TestAuth } from "#test/test-auth.ts";
import type { ReceivedDelivery } from "#test/webhook-receiver.ts";
import { registerEndpoint, storeEvents, useWebhookBed, verifyAt, waitFor } from "#test/webhooks.ts";

/**
 * Webhook delivery when the receiver misbehaves (issue 33 §4; docs/decisions/0020-webhooks.md): every
 * event arrives once the receiver is back, with the same `webhook-id` on every attempt, and the
 * outbound guard keeps deliveries away from private addresses and redirects (docs/security.md).
 */

const bed = useWebhookBed();

type Row = { _id: string; status: string; attempts: { statusCode: number | null; error: string | null }[] };

function verify(secret: string, delivery: ReceivedDelivery, now: Date): unknown {
  return verifyAt(now, () => new Webhook(secret).verify(delivery.body, delivery.headers));
}

const rowsOf = (t: TestAuth) => () =>
  t.db.collection<Row>("webhookDeliveries").find({}).sort({ _id: 1 }).toArray();

/** Waits until `count` deliveries are stored and each has `attempts` attempts recorded. */
function attemptsRecorded(t: TestAuth, count: number, attempts: number): Promise<Row[]> {
  return waitFor(
    rowsOf(t),
    (rows) => rows.length === count && rows.every((row) => (row.attempts ?? []).length === attempts),
  );
}

describe("webhook delivery faults", { timeout: 90_000 }, () => {
  it("a receiver answering 500, then too slowly, then dropping the connection gets every event once it answers", async () => {
    const { t, admin } = await bed.open({}, { frozen: true });
    const receiver = await bed.receiver();
    const { secret } = await registerEndpoint(admin, { url: receiver.url });
    const rows = rowsOf(t);
    const attemptsMade = (count: number) => attemptsRecorded(t, 3, count);

    receiver.answer({ kind: "status", status: 500 });
    await storeEvents(t, [{ type: "user.created" }, { type: "user.updated" }, { type: "user.deleted" }]);
    await attemptsMade(1);
    receiver.answer({ kind: "slow", ms: 2000 });
    t.advance(5);
    await attemptsMade(2);
    receiver.answer({ kind: "close" });
    t.advance(5 * 60);
    await attemptsMade(3);
    receiver.answer({ kind: "status", status: 204 });
    t.advance(30 * 60);
    const delivered = await receiver.waitForDelivered(3);
    await waitFor(rows, (list) => list.every((row) => row.status === "delivered"));

    const host = new URL(receiver.url).host;
    for (const row of await rows()) {
      expect(row.status).toBe("delivered");
      expect(row.attempts.map(({ statusCode, error }) => ({ statusCode, error }))).toEqual([
        { statusCode: 500, error: "answered 500" },
        { statusCode: null, error: `${host}/hooks did not answer in time` },
        { statusCode: null, error: `${host}/hooks could not be reached` },
        { statusCode: 204, error: null },
      ]);
      const sent = receiver.received.filter((entry) => entry.id === row._id);
      expect(sent.map((entry) => entry.answered)).toEqual([500, "slow", "close", 204]);
      // Each attempt as its receiver saw it, at the time it was sent: signed, with the same id.
      for (const entry of sent)
        expect(verify(secret, entry, new Date(Number(entry.timestamp) * 1000))).toBeTruthy();
    }
    expect(new Set(delivered.map((entry) => entry.id)).size).toBe(3);
  });

  it("a receiver down for an hour gets every event after it is back, with the same webhook-id", async () => {
    const { t, admin } = await bed.open({}, { frozen: true });
    const receiver = await bed.receiver();
    const { secret } = await registerEndpoint(admin, { url: receiver.url });
    receiver.answer({ kind: "status", status: 503 });
    const events = await storeEvents(t, [{ type: "organization.created" }, { type: "member.added" }]);
    await attemptsRecorded(t, 2, 1);
    // An hour in one-minute steps. Each retry is due its delay after the attempt before it: at 0,
    // then 1 min (5 s later, seen at the next step), 6 min (+5 min) and 36 min (+30 min), all refused.
    const attemptsBy: Record<number, number> = { 1: 2, 6: 3, 36: 4 };
    for (let minute = 1; minute <= 60; minute++) {
      t.advance(60);
      const expected = attemptsBy[minute];
      if (expected) await attemptsRecorded(t, 2, expected);
    }
    expect(receiver.delivered()).toHaveLength(0);
    expect(receiver.received).toHaveLength(8);
    receiver.answer({ kind: "status", status: 204 });
    // The next retry is 2 h after the one at 36 min.
    t.advance(2 * 3600);
    const delivered = await receiver.waitForDelivered(2);
    for (const event of events) {
      const sent = receiver.received.filter((entry) => JSON.parse(entry.body).id === event._id);
      expect(sent).toHaveLength(5);
      expect(new Set(sent.map((entry) => entry.id)).size).toBe(1);
      expect(verify(secret, sent.at(-1)!, t.now())).toBeTruthy();
    }
    expect(delivered).toHaveLength(2);
  });

  it("an endpoint whose deliveries all fail for five days is disabled and whoever registered it is mailed", async () => {
    const { t, admin } = await bed.open({}, { frozen: true });
    const receiver = await bed.receiver();
    receiver.answer({ kind: "status", status: 500 });
    const { id } = await registerEndpoint(admin, { url: receiver.url });
    const endpoint = () => t.db.collection("webhookEndpoints").findOne({});
    await storeEvents(t, [{ type: "user.created" }]);
    await waitFor(endpoint, (doc) => doc?.failingSince instanceof Date);
    const failingSince = (await endpoint())!.failingSince as Date;
    // Four days and 23 hours of failures: still enabled.
    t.advance(5 * 86_400 - 3600);
    await storeEvents(t, [{ type: "user.updated" }]);
    await waitFor(
      () => receiver.received.length,
      (n) => n >= 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await endpoint())!.enabled).toBe(true);
    t.advance(3600);
    await storeEvents(t, [{ type: "user.deleted" }]);
    const disabled = await waitFor(endpoint, (doc) => doc?.enabled === false);
    expect(disabled).toMatchObject({
      disabledReason: `every delivery failed since ${failingSince.toISOString()}`,
      failingSince,
    });
    const mail = await waitFor(
      () => t.outbox.messages().filter((message) => message.kind === "webhook-endpoint-disabled"),
      (list) => list.length > 0,
    );
    expect(mail.map((message) => message.to)).toEqual(["admin@example.com"]);
    expect(mail[0]!.text).toContain(receiver.url);
    const shown = await admin.get<{ enabled: boolean; disabledReason: string }>(
      `/webhooks/get?endpointId=${id}`,
    );
    expect(shown.body).toMatchObject({ enabled: false, disabledReason: disabled!.disabledReason });
    // A disabled endpoint gets no new deliveries.
    const before = await t.db.collection("webhookDeliveries").countDocuments();
    await storeEvents(t, [{ type: "user.created" }]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await t.db.collection("webhookDeliveries").countDocuments()).toBe(before);
  });

  it("by default a URL to a private address is refused at registration, and a name resolving to one at delivery", async () => {
    const { t, admin } = await bed.open({ outbound: { allowPrivateAddresses: false } });
    const receiver = await bed.receiver();
    for (const url of [
      receiver.url,
      "https://127.0.0.1/hooks",
      "https://[::1]/hooks",
      "https://10.0.0.8/hooks",
    ]) {
      const refused = await admin.post("/webhooks/create", { url });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        code: "INVALID_WEBHOOK_URL",
        message: "The webhook URL must be an https URL of a public address",
      });
    }
    expect(await t.db.collection("webhookEndpoints").countDocuments()).toBe(0);
    // "localhost" passes the literal check; the guard resolves it at delivery and refuses it.
    const port = new URL(receiver.url).port;
    await registerEndpoint(admin, { url: `https://localhost:${port}/hooks` });
    await storeEvents(t, [{ type: "user.created" }]);
    const [row] = await waitFor(
      () => t.db.collection<Row>("webhookDeliveries").find({}).toArray(),
      (list) => list[0]?.attempts.length === 1,
    );
    expect(row!.status).toBe("failed");
    expect(row!.attempts[0]).toMatchObject({
      statusCode: null,
      error: `localhost:${port} resolves to a private or reserved address`,
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("a redirect is not followed: the attempt fails and the redirect's target receives nothing", async () => {
    const { t, admin } = await bed.open();
    const receiver = await bed.receiver();
    const elsewhere = await bed.receiver("/elsewhere");
    receiver.answer({ kind: "redirect", location: elsewhere.url });
    await registerEndpoint(admin, { url: receiver.url });
    await storeEvents(t, [{ type: "user.created" }]);
    const [row] = await waitFor(
      () => t.db.collection<Row>("webhookDeliveries").find({}).toArray(),
      (list) => list[0]?.attempts.length === 1,
    );
    expect(row!.status).toBe("failed");
    expect(row!.attempts[0]).toMatchObject({
      statusCode: null,
      error: `${new URL(receiver.url).host}/hooks answered a redirect, which is not followed`,
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(elsewhere.received).toHaveLength(0);
  });
});
