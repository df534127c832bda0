import type { AuthContext } from "../../context.ts";
import type { MailDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { createLeaseOwner, createPollLoop, runInLanes } from "../poll-loop.ts";
import { attemptMail } from "./deliver.ts";
import { claimMail, findDueMails, insertMail, OUTBOX_COMMENT } from "./store.ts";
import type { MailOutbox } from "./types.ts";

export interface MailOutboxSettings {
  worker: boolean;
  pollInterval: number;
  concurrency: number;
  leaseSeconds: number;
}

/** `readAuth`: the instance's context, read when a mail is queued (the context holds this outbox). */
export function createMailOutbox(readAuth: () => AuthContext, settings: MailOutboxSettings): MailOutbox {
  const owner = createLeaseOwner();
  const inFlight = new Set<Promise<void>>();
  const leaseMs = settings.leaseSeconds * 1000;
  const track = (auth: AuthContext, sending: Promise<void>) => {
    const tracked = sending.catch((error: unknown) =>
      auth.options.logger.error("mail outbox: recording failed", error),
    );
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
    return tracked;
  };
  const runPass = async () => {
    const auth = readAuth();
    for (;;) {
      const now = auth.now();
      const due = await findDueMails(auth.collections, now, settings.concurrency * 4);
      if (due.length === 0) return;
      const until = new Date(now.getTime() + leaseMs);
      const claimed = await runInLanes(
        due,
        settings.concurrency,
        (mail) => claimMail(auth.collections, mail, owner, now, until),
        (mail) => track(auth, attemptMail(auth, owner, mail, Promise.resolve())),
      );
      // Every candidate was another instance's: let the poll come round rather than spin on them.
      if (claimed === 0) return;
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
      if (!context.beside) {
        await insertMail(auth.collections, doc);
        track(auth, attemptMail(auth, owner, doc, Promise.resolve()));
        return;
      }
      track(auth, attemptMail(auth, owner, doc, insertMail(auth.collections, doc, OUTBOX_COMMENT)));
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
