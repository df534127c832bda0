import { randomBytes } from "node:crypto";
import { type Auth, createAuth } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { afterEach, expect } from "vitest";
import { signUpPerson } from "./admin.ts";
import type { TestBrowser } from "./browser.ts";
import {
  type Clock,
  createTestAuth,
  type Overrides,
  TEST_ORIGIN,
  TEST_SECRET,
  type TestAuth,
} from "./test-auth.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";

/**
 * The webhook tests' fixture: an auth with webhooks on (a 30 ms poll, a short attempt timeout and
 * private targets allowed, so a receiver on 127.0.0.1 can be reached), an admin who registers
 * endpoints, receivers on 127.0.0.1, and events stored the way features/events stores them (a row in
 * `events`, then the instance's event hub told). Everything opened is closed after the test, the
 * delivery workers before their databases.
 */

const WEBHOOK_OPTIONS = { enabled: true, pollInterval: 30, attemptTimeout: 400, leaseSeconds: 60 };

export interface WebhookBed {
  t: TestAuth;
  admin: TestBrowser;
}

export function useWebhookBed(): {
  open(overrides?: Overrides, clock?: Clock): Promise<WebhookBed>;
  receiver(path?: string): Promise<WebhookReceiver>;
  /** Another auth instance on the same database (a second server process). */
  sibling(t: TestAuth, overrides?: Overrides): Auth;
} {
  const closing: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });
  return {
    async open(overrides = {}, clock = {}) {
      const t = await createTestAuth(
        {
          webhooks: WEBHOOK_OPTIONS,
          outbound: { allowPrivateAddresses: true },
          ...overrides,
        },
        clock,
      );
      closing.push(() => t.close());
      closing.push(async () => {
        await t.auth.webhooks?.stop();
      });
      const admin = await signUpPerson(t, "admin", "admin");
      // The admin's own sign-up events happened before any endpoint exists: a frozen clock moves
      // past them, so an endpoint registered next (which receives later events only) never gets them.
      t.advance(1);
      return { t, admin: admin.browser };
    },
    async receiver(path) {
      const receiver = await startWebhookReceiver(path);
      closing.push(() => receiver.close());
      return receiver;
    },
    sibling(t, overrides = {}) {
      const auth = createAuth({
        database: t.db,
        secret: TEST_SECRET,
        baseURL: TEST_ORIGIN,
        clock: t.now,
        logger: { info: () => {}, warn: () => {}, error: (...args: unknown[]) => console.error(...args) },
        webhooks: WEBHOOK_OPTIONS,
        outbound: { allowPrivateAddresses: true },
        ...overrides,
      });
      closing.push(async () => {
        await auth.webhooks?.stop();
      });
      return auth;
    },
  };
}

/** Registers an endpoint through the API as `caller`; answers its id and secret. */
export async function registerEndpoint(
  caller: TestBrowser,
  body: { url: string; organizationId?: string; eventTypes?: string[] },
): Promise<{ id: string; secret: string }> {
  const res = await caller.post<{ endpoint: { id: string }; secret: string }>("/webhooks/create", body);
  expect(res.status).toBe(200);
  return { id: res.body.endpoint.id, secret: res.body.secret };
}

export interface StoredEvent {
  _id: string;
  type: string;
  createdAt: Date;
  organizationId: string | null;
  userId: string | null;
  data: Record<string, unknown>;
}

/**
 * Stores events as features/events' relay does — rows in `events` with time-ordered ids — and tells
 * `notify`'s event hub (the instance where the change happened). Answers them in order.
 */
export async function storeEvents(
  t: TestAuth,
  specs: readonly { type: string; organizationId?: string | null; data?: Record<string, unknown> }[],
  notify: Auth = t.auth,
): Promise<StoredEvent[]> {
  const at = t.now();
  const events = specs.map((spec, index) => ({
    _id: `evt_${at.getTime().toString(16).padStart(12, "0")}${String(index).padStart(4, "0")}${randomBytes(6).toString("hex")}`,
    type: spec.type,
    createdAt: at,
    organizationId: spec.organizationId ?? null,
    userId: new ObjectId().toHexString(),
    data: spec.data ?? {},
  }));
  await t.db.collection<StoredEvent>("events").insertMany(events.map((event) => ({ ...event })));
  notify.context.collections.eventHub.publish(events);
  return events;
}

/**
 * Runs `verify` (standardwebhooks' Webhook.verify, which refuses a timestamp 5 minutes off its own
 * clock) as a receiver whose clock reads `now`: the tests' clock, which they move by hours.
 */
export function verifyAt<T>(now: Date, verify: () => T): T {
  const realNow = Date.now;
  Date.now = () => now.getTime();
  try {
    return verify();
  } finally {
    Date.now = realNow;
  }
}

/** Reads until `accept` holds (every 15 ms, for at most `ms`); answers the accepted value. */
export async function waitFor<T>(
  read: () => Promise<T> | T,
  accept: (value: T) => boolean,
  ms = 5000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}
