import type { Document, ObjectId } from "mongodb";
import type { InvitationDoc, MemberDoc, UserDoc } from "./documents.ts";
import { RawPage } from "./raw-page.ts";

/** A members page and its users as read (features/organization/members/types.ts RawMemberPairs). */
interface MemberPairs {
  members: RawPage<MemberDoc>;
  users: RawPage<Pick<UserDoc, "_id" | "name" | "email" | "image">>;
  /** Member index, user index; … */
  pairs: readonly number[];
}

/** One organization's lists as get-full-organization read them, and their JSON text. */
export interface CachedListing {
  /** The organization's listing version read before the lists were (db/listing-version.ts). */
  version: number;
  /** The members page's size it was read with (`membersLimit`). */
  limit: number;
  members: MemberPairs;
  invitations: RawPage<InvitationDoc>;
  /** `"members":[…],"invitations":[…]`, as the answer carries it. */
  text: string;
}

interface Entry extends CachedListing {
  storedAt: number;
  bytes: number;
}

/**
 * get-full-organization's listings, in memory (issue 16: a 100-member organization at most 2 ms of
 * server CPU). A listing is served only while the organization document — read on every request —
 * still carries the version it was stored under, and for at most `maxAgeMs`: the bound on what a
 * crash between a write and its version bump, or a write by a version of Tessera that does not bump,
 * can leave served. One listing per organization (the last members limit asked for), and at most
 * `maxBytes` of them together (BSON bytes, copied out of the driver's buffers, and the JSON text),
 * the least recently used going first; expired ones are dropped whenever one is stored. Per server
 * process: every process checks the same version in the database.
 */
export class ListingCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxBytes: number;
  readonly #maxAgeMs: number;
  readonly #clock: () => number;
  #bytes = 0;

  constructor(maxBytes: number, maxAgeMs: number, clock: () => number = () => performance.now()) {
    this.#maxBytes = maxBytes;
    this.#maxAgeMs = maxAgeMs;
    this.#clock = clock;
  }

  /** Listings held, and their bytes. */
  get size(): { listings: number; bytes: number } {
    return { listings: this.#entries.size, bytes: this.#bytes };
  }

  /** The organization's listing of its first `limit` members stored under `version`, if still fresh. */
  get(organizationId: ObjectId, limit: number, version: number): CachedListing | null {
    const key = organizationId.toHexString();
    const entry = this.#entries.get(key);
    if (!entry || entry.limit !== limit) return null;
    if (entry.version !== version || this.#clock() - entry.storedAt > this.#maxAgeMs) {
      this.#delete(key, entry);
      return null;
    }
    // Most recently used last: the first key is the one to evict.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** Stores a copy of the listing's bytes (the driver's buffers may hold a whole reply or more). */
  set(organizationId: ObjectId, listing: CachedListing): CachedListing {
    const key = organizationId.toHexString();
    const previous = this.#entries.get(key);
    if (previous) this.#delete(key, previous);
    const members = copyPage(listing.members.members);
    const users = copyPage(listing.members.users);
    const invitations = copyPage(listing.invitations);
    const entry: Entry = {
      ...listing,
      members: { members, users, pairs: listing.members.pairs },
      invitations,
      storedAt: this.#clock(),
      bytes: members.bytes.length + users.bytes.length + invitations.bytes.length + 2 * listing.text.length,
    };
    if (entry.bytes > this.#maxBytes) return listing;
    for (const [oldKey, old] of this.#entries) {
      if (entry.storedAt - old.storedAt > this.#maxAgeMs) this.#delete(oldKey, old);
    }
    while (this.#bytes + entry.bytes > this.#maxBytes) {
      const [oldKey, old] = this.#entries.entries().next().value as [string, Entry];
      this.#delete(oldKey, old);
    }
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
    return entry;
  }

  #delete(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

function copyPage<T extends Document>(page: RawPage<T>): RawPage<T> {
  return page.length === 0 ? page : new RawPage<T>(Buffer.from(page.bytes), page.starts);
}
