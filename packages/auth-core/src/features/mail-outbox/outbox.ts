import type { AuthContext } from "../../context.ts";
import type { MailDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { createLeaseOwner, createPollLoop, runInLanes } from "../poll-loop.ts";
import { createOutcomeRecorder, sendHeldMail } from "./deliver.ts";
import { claimMails, findDueMails, insertMail, OUTBOX_COMMENT, UNSENT_ADDRESS } from "./store.ts";
import type { MailOutbox } from "./types.ts";

export interface MailOutboxSettings {
  worker: boolean;
  pollInterval: number;
  concurrency: number;
  leaseSeconds: number;
}

/** The inert stand-in of a mail not sent (MailOutbox.storeUnsentMail): no address, no body, no user. */
function unsentMail(kind: string, now: Date): MailDoc {
  return {
    _id: new ObjectId(),
    kind,
    to: UNSENT_ADDRESS,
    subject: null,
    text: null,
    html: null,
    state: "dropped",
    attempts: 0,
    nextAttemptAt: null,
    lease: null,
    claims: 0,
    lastError: null,
    expiresAt: now,
    userId: null,
    organizationId: null,
    invitationId: null,
    createdAt: now,
    updatedAt: now,
    sentAt: null,
  };
}

/** `readAuth`: the instance's context, read when a mail is queued (the context holds this outbox). */
export function createMailOutbox(readAuth: () => AuthContext, settings: MailOutboxSettings): MailOutbox {
  const owner = createLeaseOwner();
  const inFlight = new Set<Promise<void>>();
  const leaseMs = settings.leaseSeconds * 1000;
  const record = createOutcomeRecorder(owner);
  /** Sends a mail this instance holds and records the outcome once `stored` (the row's insert) is done. */
  const deliver = (auth: AuthContext, mail: MailDoc, stored: Promise<void>) =>
    Promise.all([sendHeldMail(auth, mail), stored]).then(([outcome]) => record(auth, mail._id, outcome));
  const track = (auth: AuthContext, sending: Promise<void>) => {
    const tracked = sending.catch((error: unknown) =>
      auth.options.logger.error("mail outbox: recording failed", error),
    );
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
    return tracked;
  };
  // One pass at a time per instance: a second call joins the one under way. claimLeases tells this
  // owner's claims by owner and lease end, which two passes of one instance at one instant share.
  let passing: Promise<void> | null = null;
  const runPass = () => {
    passing ??= pass().finally(() => {
      passing = null;
    });
    return passing;
  };
  const pass = async () => {
    const auth = readAuth();
    for (;;) {
      const now = auth.now();
      const due = await findDueMails(auth.collections, now, settings.concurrency * 4);
      if (due.length === 0) return;
      const until = new Date(now.getTime() + leaseMs);
      // One command claims the whole batch, one more holds it; sends run `concurrency` at a time.
      const held = await claimMails(auth.collections, due, owner, now, until);
      // Every candidate was another instance's: let the poll come round rather than spin on them.
      if (held.length === 0) return;
      await runInLanes(
        held,
        settings.concurrency,
        async () => true,
        (mail) => track(auth, deliver(auth, mail, Promise.resolve())),
      );
    }
  };
  const loop = createPollLoop(runPass, {
    pollInterval: settings.pollInterval,
    onError: (error) => readAuth().options.logger.error("mail outbox: delivery pass failed", error),
    waitFirst: true,
  });
  return {
    async queue(message, context) {
      const auth = readAuth();
      const now = auth.now();
      const doc: MailDoc = {
        _id: new ObjectId(),
        kind: message.kind,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        state: "queued",
        attempts: 0,
        // Held by this instance until then: its own first attempt is under way.
        nextAttemptAt: new Date(now.getTime() + leaseMs),
        lease: { owner, until: new Date(now.getTime() + leaseMs) },
        claims: 0,
        lastError: null,
        expiresAt: context.expiresAt,
        userId: context.userId ?? null,
        organizationId: context.organizationId ?? null,
        invitationId: context.invitationId ?? null,
        createdAt: now,
        updatedAt: now,
        sentAt: null,
      };
      if (context.beside) {
        // Beside the answer the row may land after the request ends: the link goes first.
        await context.linkStored?.();
        track(auth, deliver(auth, doc, insertMail(auth.collections, doc, OUTBOX_COMMENT)));
        return;
      }
      await insertMail(auth.collections, doc);
      if (context.linkStored) {
        try {
          await context.linkStored();
        } catch (error) {
          // The link was never stored: its mail must not go out, now or after a crash (the row is
          // held by this instance's lease until then).
          const outcome = { state: "dropped" as const, nextAttemptAt: null, lastError: "link not stored" };
          track(auth, record(auth, doc._id, { ...outcome, subject: null, text: null, html: null }));
          throw error;
        }
      }
      track(auth, deliver(auth, doc, Promise.resolve()));
    },
    async storeUnsentMail(kind) {
      await insertMail(readAuth().collections, unsentMail(kind, readAuth().now()));
    },
    start() {
      if (settings.worker) loop.start();
    },
    async stop() {
      await loop.stop();
      await Promise.all(inFlight);
    },
    runPass,
    async settle() {
      await Promise.all(inFlight);
    },
  };
}
