import type { Collections } from "../../db/collections.ts";
import type { MailDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { claimLeases } from "../../db/lease-claims.ts";

/**
 * The only module that reads or writes `mails` and `mailClaims` (docs/architecture.md "One owner
 * per collection"). A mail's outcome is written compare-and-set on its lease owner, so an instance
 * whose lease was taken over never records over the one that took it.
 */

/** Commands the outbox sends off a request's answer path carry it (test budgets leave them out). */
export const OUTBOX_COMMENT = "tessera:mail-outbox";

/**
 * The `to` of the inert rows that stand in for a mail not sent (outbox.ts storeUnsentMail): never a
 * real address, so no list of a user's or an address's mails can show one.
 */
export const UNSENT_ADDRESS = "";

/** What a mail's record of an attempt sets. */
export type MailOutcome = Pick<MailDoc, "state" | "nextAttemptAt" | "lastError"> &
  Partial<Pick<MailDoc, "sentAt" | "subject" | "text" | "html">>;

/** The listed fields: never a body (it may carry a live link). */
const WITHOUT_BODY = { subject: 0, text: 0, html: 0 } as const;

/** `comment`: OUTBOX_COMMENT when the insert runs beside the request's answer rather than in it. */
export async function insertMail(collections: Collections, doc: MailDoc, comment?: string): Promise<void> {
  await collections.mails.insertOne(doc, comment === undefined ? {} : { comment });
}

/** A few queued mails due at `now` (a held lease's end is its `nextAttemptAt`), earliest first. */
export function findDueMails(collections: Collections, now: Date, limit: number): Promise<MailDoc[]> {
  return collections.mails
    .find({ state: "queued", nextAttemptAt: { $lte: now } }, { comment: OUTBOX_COMMENT })
    .sort({ nextAttemptAt: 1 })
    .limit(limit)
    .toArray();
}

/**
 * Claims the due `mails` for `owner` until `until` (db/lease-claims.ts claimLeases: one insert of
 * all their claims) and answers those this owner now holds, their leases written in one command. A
 * held row carries the lease and is not due before the lease ends. claimLeases knows this owner's
 * claims by owner and lease end: an instance runs one pass at a time (outbox.ts).
 */
export async function claimMails(
  collections: Collections,
  mails: readonly MailDoc[],
  owner: string,
  now: Date,
  until: Date,
): Promise<MailDoc[]> {
  const rows = mails.map((mail) => ({ key: mail._id.toHexString(), from: mail.claims }));
  const taken = await claimLeases(collections.mailClaims, rows, owner, now, until);
  const held = mails.filter((mail) => taken.has(mail._id.toHexString()));
  if (held.length === 0) return [];
  await collections.mails.bulkWrite(
    held.map((mail) => ({
      updateOne: {
        filter: { _id: mail._id },
        update: {
          $set: {
            lease: { owner, until },
            claims: (taken.get(mail._id.toHexString()) ?? mail.claims) + 1,
            nextAttemptAt: until,
          },
        },
      },
    })),
    { ordered: false, comment: OUTBOX_COMMENT },
  );
  return held;
}

/**
 * Records attempts made under `owner`'s lease and releases them, in one command; a row whose lease
 * was taken over is left to the instance that took it.
 */
export async function recordMailAttempts(
  collections: Collections,
  owner: string,
  attempts: readonly { id: ObjectId; outcome: MailOutcome }[],
  now: Date,
): Promise<void> {
  if (attempts.length === 0) return;
  await collections.mails.bulkWrite(
    attempts.map(({ id, outcome }) => ({
      updateOne: {
        filter: { _id: id, "lease.owner": owner },
        update: { $set: { ...outcome, lease: null, updatedAt: now }, $inc: { attempts: 1 } },
      },
    })),
    { ordered: false, comment: OUTBOX_COMMENT },
  );
}

/** A user's mails, newest first, without bodies. */
export function listUserMails(collections: Collections, userId: ObjectId, limit: number): Promise<MailDoc[]> {
  return collections.mails
    .find({ userId }, { projection: WITHOUT_BODY })
    .sort({ createdAt: -1 })
    .limit(limit)
    .toArray();
}

/** The state of each invitation's latest mail, by invitation id, for `ids` (one indexed query). */
export async function findInvitationMailStates(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<Map<string, MailDoc["state"]>> {
  const latest = new Map<string, MailDoc["state"]>();
  if (ids.length === 0) return latest;
  const rows = await collections.mails
    .find({ invitationId: { $in: [...ids] } }, { projection: { invitationId: 1, state: 1, createdAt: 1 } })
    .sort({ createdAt: 1 })
    .toArray();
  for (const row of rows) if (row.invitationId) latest.set(row.invitationId.toHexString(), row.state);
  return latest;
}

/** Mails in `states`, oldest first, without bodies (`tessera mail queue`). */
export function listMailsInStates(
  collections: Collections,
  states: readonly MailDoc["state"][],
  limit: number,
): Promise<MailDoc[]> {
  return collections.mails
    .find({ state: { $in: [...states] } }, { projection: WITHOUT_BODY })
    .sort({ createdAt: 1 })
    .limit(limit)
    .toArray();
}

/**
 * Queues again, due now, the failed mails (`id` one of them, else all) whose body is still kept and
 * whose token has not expired. Returns how many.
 */
export async function requeueFailedMails(
  collections: Collections,
  select: { id: ObjectId } | { all: true },
  now: Date,
): Promise<number> {
  const { modifiedCount } = await collections.mails.updateMany(
    {
      ...("id" in select ? { _id: select.id } : {}),
      state: "failed",
      text: { $ne: null },
      expiresAt: { $gt: now },
    },
    { $set: { state: "queued", nextAttemptAt: now, lease: null, updatedAt: now } },
  );
  return modifiedCount;
}

/**
 * auth.cleanup(): bodies of mails no longer sendable (token expired) are nulled, the inert stand-ins
 * of mails not sent removed, and rows older than `keepBefore` removed. Returns how many rows were
 * removed.
 */
export async function deleteOldMails(collections: Collections, now: Date, keepBefore: Date): Promise<number> {
  await collections.mails.updateMany(
    { expiresAt: { $lte: now }, text: { $ne: null } },
    { $set: { subject: null, text: null, html: null } },
  );
  // The inert stand-ins go at once (index state_nextAttemptAt serves the state).
  const unsent = await collections.mails.deleteMany({ state: "dropped", to: UNSENT_ADDRESS });
  const { deletedCount } = await collections.mails.deleteMany({ createdAt: { $lt: keepBefore } });
  await collections.mailClaims.deleteMany({ until: { $lt: keepBefore } });
  return unsent.deletedCount + deletedCount;
}
