import type { TestAuth } from "./test-auth.ts";

/** An event as a test compares it: everything but its id and time, which the id's own test checks. */
export interface SeenEvent {
  type: string;
  organizationId: string | null;
  userId: string | null;
  data: Record<string, unknown>;
}

interface StoredEvent extends SeenEvent {
  _id: string;
  createdAt: Date;
}

/** Every stored event, oldest first, once the relays under way have finished (features/events). */
export async function storedEvents(t: TestAuth): Promise<StoredEvent[]> {
  await t.auth.context.collections.eventHub.settle();
  return (await t.db.collection("events").find({}).sort({ _id: 1 }).toArray()) as unknown as StoredEvent[];
}

/**
 * The events `run` wrote, in order (those of earlier actions left out), each as `type`, its
 * organization and user, and `data`.
 */
export async function eventsOf(t: TestAuth, run: () => Promise<unknown>): Promise<SeenEvent[]> {
  const before = new Set((await storedEvents(t)).map((event) => event._id));
  await run();
  return (await storedEvents(t))
    .filter((event) => !before.has(event._id))
    .map(({ type, organizationId, userId, data }) => ({ type, organizationId, userId, data }));
}
