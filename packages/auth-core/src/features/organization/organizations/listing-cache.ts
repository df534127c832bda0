import type { ObjectId } from "mongodb";
import type { InvitationDoc } from "../../../db/documents.ts";
import type { RawPage } from "../../../db/raw-page.ts";
import type { RawMemberPairs } from "../members/types.ts";

/** One organization's lists as get-full-organization read them, and their JSON text. */
export interface CachedListing {
  /** The organization's listing version read before the lists were (db/listing-version.ts). */
  version: number;
  members: RawMemberPairs;
  invitations: RawPage<InvitationDoc>;
  /** `"members":[…],"invitations":[…]`, as the answer carries it. */
  text: string;
  storedAt: number;
}

/**
 * get-full-organization's listings, in memory (issue 16: a 100-member organization at most 2 ms of
 * server CPU). An entry is served only while the organization document — read on every request —
 * still carries the version it was stored under, and for at most `maxAgeMs`: the bound on what a
 * crash between a write and its version bump, or a write by a version of Tessera that does not bump,
 * can leave served. The most recently used `entries` listings are kept (about 100 KB each for a
 * 100-member organization with 100 invitations). Per server process: every process checks the same
 * version in the database.
 */
export class ListingCache {
  readonly #entries = new Map<string, CachedListing>();
  readonly #capacity: number;
  readonly #maxAgeMs: number;
  readonly #clock: () => number;

  constructor(capacity: number, maxAgeMs: number, clock: () => number = () => performance.now()) {
    this.#capacity = capacity;
    this.#maxAgeMs = maxAgeMs;
    this.#clock = clock;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The listing of the organization's first `limit` members stored under `version`, if still fresh. */
  get(organizationId: ObjectId, limit: number, version: number): CachedListing | null {
    const key = keyOf(organizationId, limit);
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.version !== version || this.#clock() - entry.storedAt > this.#maxAgeMs) {
      this.#entries.delete(key);
      return null;
    }
    // Most recently used last: the first key is the one to evict.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  set(organizationId: ObjectId, limit: number, entry: Omit<CachedListing, "storedAt">): void {
    const key = keyOf(organizationId, limit);
    this.#entries.delete(key);
    this.#entries.set(key, { ...entry, storedAt: this.#clock() });
    while (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}

const keyOf = (organizationId: ObjectId, limit: number) => `${organizationId.toHexString()}:${limit}`;
