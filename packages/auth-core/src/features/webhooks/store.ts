import type { Collections } from "../../db/collections.ts";
import { isDuplicateInsertError, isDuplicateKeyError } from "../../db/connect.ts";
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { claimLeases } from "../../db/lease-claims.ts";
import { upsertRetryingRace } from "../../db/upsert.ts";
import { eventIdFloor } from "../events/index.ts";
import { deliveryIdOf } from "./rules.ts";

/**
 * The only module that reads or writes `webhookEndpoints`, `webhookDeliveries` and `webhookCursors`
 * (docs/architecture.md "One owner per collection"). State changes of a delivery are compare-and-set
 * on its lease, so two instances never record over each other.
 */

const FAN_OUT_CURSOR = "fan-out";

/** A delivery attempt's outcome as stored. */
export type AttemptRecord = WebhookDeliveryDoc["attempts"][number];

export async function insertEndpoint(collections: Collections, doc: WebhookEndpointDoc): Promise<void> {
  await collections.webhookEndpoints.insertOne(doc);
}

/** The endpoint, only within `organizationId`'s scope (null: app-wide); null when there is none. */
export function findEndpoint(
  collections: Collections,
  id: ObjectId,
  organizationId: ObjectId | null,
): Promise<WebhookEndpointDoc | null> {
  return collections.webhookEndpoints.findOne({ _id: id, organizationId });
}

/** The endpoints of these ids that still exist (one `$in` read by `_id`). */
export function findEndpointsByIds(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<WebhookEndpointDoc[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return collections.webhookEndpoints.find({ _id: { $in: [...ids] } }).toArray();
}

/** The scope's endpoints, oldest first. */
export function listEndpoints(
  collections: Collections,
  organizationId: ObjectId | null,
): Promise<WebhookEndpointDoc[]> {
  return collections.webhookEndpoints.find({ organizationId }).sort({ createdAt: 1, _id: 1 }).toArray();
}

/** The endpoints a fan-out pass matches events against. */
export function listEnabledEndpoints(collections: Collections): Promise<WebhookEndpointDoc[]> {
  return collections.webhookEndpoints.find({ enabled: true }).toArray();
}

/** Sets fields of an endpoint in its scope; the endpoint after, null when there is none. */
export function updateEndpoint(
  collections: Collections,
  id: ObjectId,
  organizationId: ObjectId | null,
  set: Partial<WebhookEndpointDoc>,
): Promise<WebhookEndpointDoc | null> {
  return collections.webhookEndpoints.findOneAndUpdate(
    { _id: id, organizationId },
    { $set: set },
    { returnDocument: "after" },
  );
}

/** Removes the endpoint and its deliveries (the endpoint first: a pass then finds none to send). */
export async function deleteEndpoint(
  collections: Collections,
  id: ObjectId,
  organizationId: ObjectId | null,
): Promise<boolean> {
  const { deletedCount } = await collections.webhookEndpoints.deleteOne({ _id: id, organizationId });
  if (deletedCount === 0) return false;
  const rows = await collections.webhookDeliveries
    .find({ endpointId: id }, { projection: { _id: 1, claims: 1 } })
    .toArray();
  await collections.webhookDeliveries.deleteMany({ endpointId: id });
  // Claims after their deliveries: a reader holding a stale row finds no claim free to take.
  const claims = rows.flatMap((row) =>
    Array.from({ length: (row.claims ?? 0) + 1 }, (_, n) => `${row._id}|${n}`),
  );
  if (claims.length > 0) await collections.webhookClaims.deleteMany({ _id: { $in: claims } });
  return true;
}

/** Marks the endpoint failing since `at` unless it already is. */
export async function markEndpointFailing(collections: Collections, id: ObjectId, at: Date): Promise<void> {
  await collections.webhookEndpoints.updateOne(
    { _id: id, failingSince: null },
    { $set: { failingSince: at } },
  );
}

/** A success clears the failure run. */
export async function markEndpointHealthy(collections: Collections, id: ObjectId): Promise<void> {
  await collections.webhookEndpoints.updateOne(
    { _id: id, failingSince: { $ne: null } },
    { $set: { failingSince: null } },
  );
}

/**
 * Disables an endpoint failing since `failingSince`; true for the one call, of any instance, that
 * did it (it mails the owners). The `disabled|<endpoint>|<failingSince>` claim insert decides: the
 * filtered update alone is read-then-write on FerretDB v1 (two lanes both "disabled" it, and two
 * mails went out).
 */
export async function disableFailingEndpoint(
  collections: Collections,
  id: ObjectId,
  failingSince: Date,
  reason: string,
  now: Date,
): Promise<boolean> {
  try {
    await collections.webhookClaims.insertOne({
      _id: `disabled|${id.toHexString()}|${failingSince.getTime()}`,
      owner: "disable",
      until: now,
    });
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
  await collections.webhookEndpoints.updateOne(
    { _id: id },
    { $set: { enabled: false, disabledReason: reason, updatedAt: now } },
  );
  return true;
}

/** Where the fan-out resumes: the last event id every instance has fanned out, null at the start. */
export async function readFanOutCursor(collections: Collections): Promise<string | null> {
  return (await collections.webhookCursors.findOne({ _id: FAN_OUT_CURSOR }))?.afterId ?? null;
}

/**
 * Moves the cursor from `from` to `to`; false when another instance moved it first (its pass then
 * covered these events too: rows are keyed by event and endpoint).
 */
export async function moveFanOutCursor(
  collections: Collections,
  from: string | null,
  to: string,
  now: Date,
): Promise<boolean> {
  if (from === null) {
    const result = await upsertRetryingRace(() =>
      collections.webhookCursors.updateOne(
        { _id: FAN_OUT_CURSOR },
        { $setOnInsert: { afterId: to, updatedAt: now } },
        { upsert: true },
      ),
    ).catch(() => null);
    return result?.upsertedCount === 1;
  }
  const { modifiedCount } = await collections.webhookCursors.updateOne(
    { _id: FAN_OUT_CURSOR, afterId: from },
    { $set: { afterId: to, updatedAt: now } },
  );
  return modifiedCount === 1;
}

/**
 * Writes the deliveries that do not exist yet; an existing row (another instance's fan-out, or a
 * delivery already made) is left as it is. Answers those this call stored. One unordered
 * insertMany; when some already exist, FerretDB v1 may stop at the first duplicate without saying
 * which others went in, so each is then inserted alone (a duplicate ignored) and only those are
 * answered: a row the insertMany stored is found by the due-deliveries poll instead. An upsert's
 * $setOnInsert is no way out: FerretDB v1 leaves its null and empty-array fields out.
 */
export async function insertDeliveries(
  collections: Collections,
  deliveries: readonly WebhookDeliveryDoc[],
): Promise<WebhookDeliveryDoc[]> {
  if (deliveries.length === 0) return [];
  try {
    await collections.webhookDeliveries.insertMany(
      deliveries.map((doc) => ({ ...doc })),
      { ordered: false },
    );
    return [...deliveries];
  } catch (error) {
    if (!isDuplicateInsertError(error)) throw error;
  }
  const inserted = await Promise.all(deliveries.map((doc) => insertDelivery(collections, doc)));
  return deliveries.filter((_, index) => inserted[index]);
}

/** The ids among `ids` that have a delivery row (one `$in` read by `_id`). */
export async function findPresentDeliveryIds(
  collections: Collections,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await collections.webhookDeliveries
    .find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } })
    .toArray();
  return new Set(rows.map((row) => row._id));
}

/** A few due deliveries, earliest first, that no live lease holds: candidates to claim. */
export function findDueDeliveries(
  collections: Collections,
  now: Date,
  limit: number,
): Promise<WebhookDeliveryDoc[]> {
  return collections.webhookDeliveries
    .find({
      status: { $in: ["pending", "failed"] },
      nextAttemptAt: { $lte: now },
      $or: [{ lease: null }, { "lease.until": { $lte: now } }],
    })
    .sort({ nextAttemptAt: 1 })
    .limit(limit)
    .toArray();
}

/**
 * Claims deliveries for `owner` until `until` (db/lease-claims.ts claimLeases, in `webhookClaims`:
 * one insert for all of them), then writes the lease and the next `claims` into each row held (one
 * bulk write). Answers the deliveries this owner holds.
 */
export async function claimDeliveries(
  collections: Collections,
  deliveries: readonly WebhookDeliveryDoc[],
  owner: string,
  now: Date,
  until: Date,
): Promise<WebhookDeliveryDoc[]> {
  const rows = deliveries.map((delivery) => ({ key: delivery._id, from: delivery.claims ?? 0 }));
  const taken = await claimLeases(collections.webhookClaims, rows, owner, now, until);
  const held = deliveries.filter((delivery) => taken.has(delivery._id));
  if (held.length === 0) return [];
  await collections.webhookDeliveries.bulkWrite(
    held.map((delivery) => ({
      updateOne: {
        filter: { _id: delivery._id },
        update: { $set: { lease: { owner, until }, claims: (taken.get(delivery._id) ?? 0) + 1 } },
      },
    })),
    { ordered: false },
  );
  return held;
}

/**
 * Records an attempt made under `owner`'s lease and releases it; false when the lease was lost
 * meanwhile (another instance took the delivery over and its record stands).
 */
export async function recordAttempt(
  collections: Collections,
  id: string,
  owner: string,
  attempt: AttemptRecord,
  next: Pick<WebhookDeliveryDoc, "status" | "nextAttemptAt" | "failures">,
): Promise<boolean> {
  const { modifiedCount } = await collections.webhookDeliveries.updateOne(
    { _id: id, "lease.owner": owner },
    { $push: { attempts: attempt }, $set: { ...next, lease: null } },
  );
  return modifiedCount === 1;
}

/**
 * Stores deliveries claimed before they were stored (worker.ts: the deliveries of this instance's
 * own events), each with its first attempt recorded and its claim released, in one insert. Answers
 * per row whether it stood. A row stored meanwhile by a sweep (fan-out.ts, after
 * SETTLE_MS) gets the attempt by compare-and-set on its claim count: nobody else could claim it
 * while this claim lived, and one that took it over after has moved the count on (its record
 * stands, this one is dropped).
 */
export async function insertAttemptedDeliveries(
  collections: Collections,
  rows: readonly WebhookDeliveryDoc[],
): Promise<boolean[]> {
  if (rows.length === 0) return [];
  try {
    await collections.webhookDeliveries.insertMany(
      rows.map((doc) => ({ ...doc })),
      { ordered: false },
    );
    return rows.map(() => true);
  } catch (error) {
    if (!isDuplicateInsertError(error)) throw error;
  }
  return Promise.all(
    rows.map(async (row) => {
      if (await insertDelivery(collections, row)) return true;
      const { attempts, status, nextAttemptAt, failures } = row;
      const { modifiedCount } = await collections.webhookDeliveries.updateOne(
        { _id: row._id, claims: { $lt: row.claims } },
        { $push: { attempts: attempts[0]! }, $set: { status, nextAttemptAt, failures, claims: row.claims } },
      );
      if (modifiedCount === 1) return true;
      // Stored by the insertMany before it stopped: only this claim's holder writes its count.
      return (await collections.webhookDeliveries.findOne({ _id: row._id, claims: row.claims })) !== null;
    }),
  );
}

/** A delivery in the endpoint; null when there is none. */
export function findDelivery(
  collections: Collections,
  id: string,
  endpointId: ObjectId,
): Promise<WebhookDeliveryDoc | null> {
  return collections.webhookDeliveries.findOne({ _id: id, endpointId });
}

/** The endpoint's deliveries, newest first. */
export function listDeliveries(
  collections: Collections,
  endpointId: ObjectId,
  limit: number,
): Promise<WebhookDeliveryDoc[]> {
  return collections.webhookDeliveries
    .find({ endpointId })
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .toArray();
}

/**
 * Due again now, with the same `webhook-id`: one delivery, or those created in [from, to). A
 * delivery being attempted (leased) is left alone. Returns how many were rescheduled.
 */
export async function rescheduleDeliveries(
  collections: Collections,
  endpointId: ObjectId,
  select: { id: string } | { from: Date; to: Date },
  now: Date,
): Promise<number> {
  const filter = "id" in select ? { _id: select.id } : { createdAt: { $gte: select.from, $lt: select.to } };
  const { modifiedCount } = await collections.webhookDeliveries.updateMany(
    { ...filter, endpointId, $or: [{ lease: null }, { "lease.until": { $lte: now } }] },
    { $set: { status: "pending", nextAttemptAt: now, lease: null, failures: 0 } },
  );
  return modifiedCount;
}

/**
 * Retention (`events.retentionDays`, run by `auth.cleanup()`, as for the events themselves): the
 * deliveries of events that happened before `before`, then their claims. Both are `_id` ranges: a
 * delivery's id begins with its event's time (rules.ts deliveryIdOf), a claim's with its delivery's
 * id. Answers how many deliveries went.
 */
export async function deleteExpiredDeliveries(collections: Collections, before: Date): Promise<number> {
  const floor = deliveryIdOf(eventIdFloor(before), "");
  const { deletedCount } = await collections.webhookDeliveries.deleteMany({ _id: { $lt: floor } });
  await collections.webhookClaims.deleteMany({ _id: { $lt: floor } });
  return deletedCount;
}

/** Stores a delivery unless one with its `_id` exists already; true when this call stored it. */
export async function insertDelivery(collections: Collections, doc: WebhookDeliveryDoc): Promise<boolean> {
  try {
    await collections.webhookDeliveries.insertOne({ ...doc });
    return true;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    return false;
  }
}
