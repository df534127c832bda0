import { performance } from "node:perf_hooks";
import type { AuthContext } from "../../context.ts";
import { decryptString } from "../../crypto/encryption.ts";
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from "../../db/documents.ts";
import type { OutboundFetch } from "../../http/outbound.ts";
import { findNextAttemptAt, isFailingTooLong, liveSecrets } from "./rules.ts";
import { webhookHeaders } from "./signing.ts";
import {
  type AttemptRecord,
  disableFailingEndpoint,
  markEndpointFailing,
  markEndpointHealthy,
} from "./store.ts";

/** Called once when an endpoint has been disabled for failing (features/webhooks/notify.ts mails its owners). */
export type OnEndpointDisabled = (endpoint: WebhookEndpointDoc) => Promise<void>;

/** The longest error text kept with an attempt (an OutboundError's message names only the host). */
const MAX_ERROR_LENGTH = 200;

/** What recording an attempt sets besides the attempt itself. */
type AttemptOutcome = Pick<WebhookDeliveryDoc, "status" | "nextAttemptAt" | "failures">;

/**
 * Records an attempt and releases the delivery (worker.ts: in bulk, as a lease's compare-and-set or
 * as the first write of a delivery claimed before it was stored); false when the delivery was
 * taken over meanwhile and the other instance's record stands.
 */
export type RecordAttempt = (
  delivery: WebhookDeliveryDoc,
  attempt: AttemptRecord,
  outcome: AttemptOutcome,
) => Promise<boolean>;

/**
 * Makes one attempt of a delivery this instance holds the claim of, through the outbound guard
 * (http/outbound.ts: https and public addresses only unless allowed, no redirects, 10 s, a body
 * cap; docs/security.md "Webhooks"), and records it. Any 2xx is delivered; anything else, a
 * refusal, a timeout or a dropped connection is a failed attempt scheduled again with the same
 * `webhook-id` (rules.ts findNextAttemptAt), dead when the schedule is exhausted. `endpoint` is
 * the delivery's endpoint as read when it was claimed, null when it is gone; `sent` is told when
 * the receiver has answered, before the record is written.
 */
export async function attemptDelivery(
  auth: AuthContext,
  send: OutboundFetch,
  delivery: WebhookDeliveryDoc,
  endpoint: WebhookEndpointDoc | null,
  hooks: { onDisabled: OnEndpointDisabled; record: RecordAttempt; sent?: () => void },
): Promise<void> {
  const { collections } = auth;
  const at = auth.now();
  if (!endpoint?.enabled) {
    const error = endpoint ? "endpoint disabled" : "endpoint removed";
    const attempt = { at, durationMs: 0, statusCode: null, error };
    await hooks.record(delivery, attempt, {
      status: "dead",
      nextAttemptAt: null,
      failures: delivery.failures,
    });
    return;
  }
  const attempt = await postDelivery(auth, send, endpoint, delivery, at);
  hooks.sent?.();
  if (attempt.error === null) {
    const outcome = { status: "delivered" as const, nextAttemptAt: null, failures: delivery.failures };
    if ((await hooks.record(delivery, attempt, outcome)) && endpoint.failingSince)
      await markEndpointHealthy(collections, endpoint._id);
    return;
  }
  const failures = delivery.failures + 1;
  const nextAttemptAt = findNextAttemptAt(failures, at);
  const status = nextAttemptAt ? "failed" : "dead";
  if (!(await hooks.record(delivery, attempt, { status, nextAttemptAt, failures }))) return;
  if (!endpoint.failingSince) await markEndpointFailing(collections, endpoint._id, at);
  else if (isFailingTooLong(endpoint.failingSince, at)) {
    const reason = `every delivery failed since ${endpoint.failingSince.toISOString()}`;
    if (await disableFailingEndpoint(collections, endpoint._id, endpoint.failingSince, reason, at))
      await hooks.onDisabled(endpoint);
  }
}

async function postDelivery(
  auth: AuthContext,
  send: OutboundFetch,
  endpoint: WebhookEndpointDoc,
  delivery: WebhookDeliveryDoc,
  at: Date,
): Promise<AttemptRecord> {
  const secrets = liveSecrets(endpoint.secrets, at)
    .map((stored) => decryptString(stored.secret, auth.options.secret))
    .filter((secret): secret is string => secret !== null);
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const response = await send(endpoint.url, {
      method: "POST",
      headers: webhookHeaders(secrets, delivery._id, at, delivery.body),
      body: delivery.body,
    });
    const ok = response.status >= 200 && response.status < 300;
    return {
      at,
      durationMs: took(),
      statusCode: response.status,
      error: ok ? null : `answered ${response.status}`,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { at, durationMs: took(), statusCode: null, error: message.slice(0, MAX_ERROR_LENGTH) };
  }
}
