import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, docs/security.md "Webhooks"): a
 * secret is `whsec_` + base64 of random bytes, the key is those bytes, and a signature is
 * `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`. The timestamp is signed
 * so a receiver can refuse a captured delivery replayed later.
 */

const SECRET_PREFIX = "whsec_";

/** A new endpoint secret: 32 random bytes, shown once to its owner. */
export function createWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    "base64",
  );
}

/** One `v1,<base64>` signature of the message by one secret. */
function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/**
 * The `webhook-id`, `webhook-timestamp` and `webhook-signature` headers of one attempt. During a
 * rotation overlap every live secret signs, space-separated, so a receiver holding either verifies.
 */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  at: Date,
  body: string,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(" "),
  };
}
