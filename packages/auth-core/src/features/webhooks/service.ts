import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import type { AuthContext } from "../../context.ts";
import { encryptString } from "../../crypto/encryption.ts";
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { isPublicAddress } from "../../http/outbound.ts";
import { liveSecrets, newDeliveryOf, ROTATION_OVERLAP_MS } from "./rules.ts";
import { createWebhookSecret } from "./signing.ts";
import * as store from "./store.ts";

/**
 * Managing webhook endpoints: what happens, in which order. The caller's scope was checked by
 * endpoints/guards.ts; every store call filters on it. Refusals are values, never thrown.
 */

export type WebhookScope = ObjectId | null;

/**
 * Whether a URL may be registered: https (http only where private targets are allowed, for
 * development), and a host that is not a private address literal. Host names are resolved and
 * checked at every delivery (http/outbound.ts), where a rebinding answer cannot slip through.
 */
export function isAcceptableWebhookUrl(auth: AuthContext, value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const allowPrivate = auth.options.outbound.allowPrivateAddresses;
  if (url.username || url.password) return false;
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return allowPrivate || isIP(host) === 0 || isPublicAddress(host);
}

export function findEndpoint(auth: AuthContext, id: ObjectId, scope: WebhookScope) {
  return store.findEndpoint(auth.collections, id, scope);
}

export function listEndpoints(auth: AuthContext, scope: WebhookScope) {
  return store.listEndpoints(auth.collections, scope);
}

export interface NewEndpoint {
  url: string;
  eventTypes?: string[] | undefined;
  description?: string | undefined;
}

/** Stores an endpoint with a new secret; answers the secret, the only time it is readable. */
export async function createEndpoint(
  auth: AuthContext,
  scope: WebhookScope,
  input: NewEndpoint,
  createdBy: ObjectId | null,
): Promise<{ endpoint: WebhookEndpointDoc; secret: string }> {
  const now = auth.now();
  const secret = createWebhookSecret();
  const endpoint: WebhookEndpointDoc = {
    _id: new ObjectId(),
    organizationId: scope,
    url: input.url,
    eventTypes: [...new Set(input.eventTypes ?? [])],
    secrets: [{ secret: encryptString(secret, auth.options.secret), createdAt: now, expiresAt: null }],
    enabled: true,
    disabledReason: null,
    failingSince: null,
    description: input.description ?? "",
    createdBy,
    createdAt: now,
    updatedAt: now,
  };
  await store.insertEndpoint(auth.collections, endpoint);
  return { endpoint, secret };
}

export interface EndpointChanges {
  url?: string | undefined;
  eventTypes?: string[] | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
}

/** Applies the changes; enabling also forgets why it was disabled and its failure run. */
export function updateEndpoint(
  auth: AuthContext,
  endpoint: WebhookEndpointDoc,
  changes: EndpointChanges,
): Promise<WebhookEndpointDoc | null> {
  const set: Partial<WebhookEndpointDoc> = { updatedAt: auth.now() };
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.eventTypes !== undefined) set.eventTypes = [...new Set(changes.eventTypes)];
  if (changes.description !== undefined) set.description = changes.description;
  if (changes.enabled === true)
    Object.assign(set, { enabled: true, disabledReason: null, failingSince: null });
  if (changes.enabled === false) Object.assign(set, { enabled: false, disabledReason: null });
  return store.updateEndpoint(auth.collections, endpoint._id, endpoint.organizationId, set);
}

/**
 * A new signing secret. The current one keeps signing for ROTATION_OVERLAP_MS beside it (a receiver
 * switches over without losing a delivery); secrets already past their overlap are dropped.
 */
export async function rotateEndpointSecret(
  auth: AuthContext,
  endpoint: WebhookEndpointDoc,
): Promise<{ endpoint: WebhookEndpointDoc; secret: string } | null> {
  const now = auth.now();
  const secret = createWebhookSecret();
  const overlapEnds = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  const kept = liveSecrets(endpoint.secrets, now)
    .filter((stored) => stored.expiresAt === null)
    .map((stored) => ({ ...stored, expiresAt: overlapEnds }));
  const secrets = [
    { secret: encryptString(secret, auth.options.secret), createdAt: now, expiresAt: null },
    ...kept,
  ];
  const updated = await store.updateEndpoint(auth.collections, endpoint._id, endpoint.organizationId, {
    secrets,
    updatedAt: now,
  });
  return updated ? { endpoint: updated, secret } : null;
}

export function deleteEndpoint(auth: AuthContext, endpoint: WebhookEndpointDoc): Promise<boolean> {
  return store.deleteEndpoint(auth.collections, endpoint._id, endpoint.organizationId);
}

/** Queues a `webhook.test` event to this endpoint alone, due now; answers its delivery. */
export async function queueTestDelivery(
  auth: AuthContext,
  endpoint: WebhookEndpointDoc,
): Promise<WebhookDeliveryDoc> {
  const now = auth.now();
  const eventId = `test_${randomBytes(12).toString("hex")}`;
  const event = {
    _id: eventId,
    type: "webhook.test",
    createdAt: now,
    organizationId: endpoint.organizationId?.toHexString() ?? null,
    userId: null,
    data: { endpointId: endpoint._id.toHexString() },
  };
  const delivery = newDeliveryOf(`msg_${eventId}`, event, endpoint, now);
  await store.insertDelivery(auth.collections, delivery);
  return delivery;
}

export function findDelivery(auth: AuthContext, endpoint: WebhookEndpointDoc, id: string) {
  return store.findDelivery(auth.collections, id, endpoint._id);
}

export function listDeliveries(auth: AuthContext, endpoint: WebhookEndpointDoc, limit: number) {
  return store.listDeliveries(auth.collections, endpoint._id, limit);
}

/** Makes deliveries due again now, with their `webhook-id`; answers how many. */
export function replayDeliveries(
  auth: AuthContext,
  endpoint: WebhookEndpointDoc,
  select: { id: string } | { from: Date; to: Date },
): Promise<number> {
  return store.rescheduleDeliveries(auth.collections, endpoint._id, select, auth.now());
}
