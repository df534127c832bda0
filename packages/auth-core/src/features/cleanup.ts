import type { AuthContext } from "../context.ts";
import { deleteExpiredVerifications } from "../db/verifications.ts";
import { deleteExpiredRateLimits } from "../http/rate-limit.ts";
import { deleteExpiredApiKeys, deleteExpiredKeyUses } from "./api-key/index.ts";
import { finishInterruptedUserDeletions } from "./deletion/index.ts";
import { deleteExpiredEvents, repairEvents, retentionCutoff } from "./events/index.ts";
import { deleteExpiredMailLimits } from "./mail-limit/index.ts";
import { deleteOldMails } from "./mail-outbox/index.ts";
import {
  deleteStaleInvitations,
  finishInterruptedInvitationClaims,
  finishInterruptedOrganizationDeletions,
} from "./organization/index.ts";
import { deleteExpiredSessions } from "./session/index.ts";
import { deleteExpiredSamlReplays } from "./sso/index.ts";
import { reconcileUserTimeline } from "./users/index.ts";
import { deleteExpiredDeliveries } from "./webhooks/index.ts";

/**
 * Explicit garbage collection (no TTL indexes: FerretDB v1 has none). Reads already ignore expired
 * rows; this only reclaims space. Run by `auth.cleanup()` and `tessera cleanup` (and hourly by the
 * standalone server). First it finishes what a crash cut in the middle (docs/scale.md
 * "Crash in the middle"): the deletions journaled in `pendingDeletions`, accepts whose member was
 * stored but not the invitation's status, and invitation claims of requests that died — work
 * proportional to those, plus one scan of `verifications` for invitation claims (the expired-row
 * deletes below scan it anyway).
 */
export interface CleanupResult {
  sessions: number;
  verifications: number;
  rateLimits: number;
  /** Slots of the per-recipient mail limit whose window has ended. */
  mailLimits: number;
  apiKeyUses: number;
  /** API keys expired for more than 30 days (until then they answer API_KEY_EXPIRED and are listed). */
  apiKeys: number;
  /** Pending invitations expired for more than 30 days; accepted, rejected and canceled ones are kept. */
  invitations: number;
  /** SAML assertion IDs kept against replay whose assertions have expired. */
  samlReplays: number;
  /** Users' timeline entries written or removed so that there is one per user (docs/scale.md). */
  userTimeline: number;
  /** User deletions a crash interrupted, finished. */
  finishedUserDeletions: number;
  /** Organization deletions a crash interrupted, finished. */
  finishedOrganizationDeletions: number;
  /** Outbox mails older than `mailQueue.keepDays` (bodies of mails whose link expired are emptied too). */
  mails: number;
  /** Events older than `events.retentionDays`. */
  events: number;
  /** Webhook deliveries of those events (with their claims). */
  webhookDeliveries: number;
  /** Events a crash left between a change and its relay, stored now (features/events repairEvents). */
  repairedEvents: number;
  /** Accepted invitations a crash left pending beside their new member, closed as accepted. */
  finishedAccepts: number;
  /** Pending invitations whose accept, reject or cancel died after its claim: open again. */
  reopenedInvitations: number;
}

/**
 * How long an expired API key or pending invitation stays visible before cleanup removes it.
 * @internal Exported for listing-cache.test.ts.
 */
export const EXPIRED_SHOWN_FOR_MS = 30 * 86_400_000;

export async function cleanupExpired(auth: AuthContext): Promise<CleanupResult> {
  const { collections } = auth;
  const now = auth.now();
  // Before the expired claims go: an interrupted accept is recognised by its claim.
  const finishedUserDeletions = await finishInterruptedUserDeletions(auth);
  const finishedOrganizationDeletions = await finishInterruptedOrganizationDeletions(auth);
  const claims = await finishInterruptedInvitationClaims(auth);
  const { retentionDays } = auth.options.events;
  const repairedEvents = await repairEvents(collections, auth.eventSources, { retentionDays });
  // Expired API keys and invitations are still shown to their owners (list endpoints; a key answers
  // API_KEY_EXPIRED, an invitation can still be canceled — docs/decisions/): reclaimed a while later.
  const shownUntil = new Date(now.getTime() - EXPIRED_SHOWN_FOR_MS);
  // Each owner deletes its own expired rows (one `deleteExpired…` per collection), one after
  // another: on the embedded database each is a scan of its collection, and scans run side by side
  // outlasted the driver's socket timeout at 100,000 rows (bench/cleanup-scale.ts).
  const sessions = await deleteExpiredSessions(collections, now);
  const verifications = await deleteExpiredVerifications(collections, now);
  const rateLimits = await deleteExpiredRateLimits(collections, now);
  const mailLimits = await deleteExpiredMailLimits(collections, now);
  const apiKeyUses = await deleteExpiredKeyUses(collections, now);
  const apiKeys = await deleteExpiredApiKeys(collections, shownUntil);
  const invitations = await deleteStaleInvitations(auth, shownUntil);
  const samlReplays = await deleteExpiredSamlReplays(collections, now);
  const userTimeline = await reconcileUserTimeline(collections, now);
  const mails = await deleteOldMails(
    collections,
    now,
    new Date(now.getTime() - auth.options.mailQueue.keepDays * 86_400_000),
  );
  const eventsBefore = retentionCutoff(now, retentionDays);
  const events = await deleteExpiredEvents(collections, eventsBefore);
  const webhookDeliveries = await deleteExpiredDeliveries(collections, eventsBefore);
  // The finished deletions' events are relayed off the answer path (features/events journal.ts):
  // a cleanup reports once they are stored and their journal entries gone.
  await collections.eventHub.settle();
  return {
    sessions,
    verifications,
    rateLimits,
    mailLimits,
    apiKeyUses,
    apiKeys,
    invitations,
    samlReplays,
    userTimeline,
    mails,
    finishedUserDeletions,
    finishedOrganizationDeletions,
    events,
    webhookDeliveries,
    repairedEvents,
    finishedAccepts: claims.accepted,
    reopenedInvitations: claims.reopened,
  };
}
