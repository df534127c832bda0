import type { AuthContext } from "../../context.ts";
import { createOutboundFetch } from "../../http/outbound.ts";
import { notifyEndpointDisabled } from "./notify.ts";
import { createWebhookWorker, type WebhookWorker } from "./worker.ts";

/** A receiver's answer is read up to this size and then dropped: only its status matters. */
const RESPONSE_CAP_BYTES = 64 * 1024;

/**
 * Starts this instance's delivery worker when `webhooks.enabled` and `webhooks.worker`; null otherwise. Every attempt goes
 * through the outbound guard (http/outbound.ts, docs/security.md "Outbound requests (SSRF)").
 */
export function startWebhookWorker(auth: AuthContext): WebhookWorker | null {
  const options = auth.options.webhooks;
  if (!options.enabled || !options.worker) return null;
  const send = createOutboundFetch({
    allowPrivateAddresses: auth.options.outbound.allowPrivateAddresses,
    timeoutMs: options.attemptTimeout,
    maxBodyBytes: RESPONSE_CAP_BYTES,
  });
  const worker = createWebhookWorker(
    auth,
    send,
    {
      pollInterval: options.pollInterval,
      concurrency: options.concurrency,
      leaseMs: options.leaseSeconds * 1000,
    },
    (endpoint) => notifyEndpointDisabled(auth, endpoint),
  );
  worker.start();
  return worker;
}
