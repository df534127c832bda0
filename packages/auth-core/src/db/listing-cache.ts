import { BSON, type Document, type ObjectId } from "mongodb";
import type { InvitationDoc, MemberDoc, UserDoc } from "./documents.ts";
import { RawPage } from "./raw-page.ts";

interface Entry<T> {
  value: T;
  version: number;
  storedAt: number;
  bytes: number;
}

/**
 * Listings answered before, in memory, each under the listing version read before its lists were
 * (db/listing-version.ts): one is served again only while the database still carries that version
 * — the caller reads it on every request — and for at most `maxAgeMs`, the bound on what a crash
 * between a write and its version bump, or a write by a version of Tessera that does not bump, can
 * leave served. One listing per key, at most `maxBytes` of them together (the bytes the caller
 * counts: BSON copied out of the driver's buffers, and the JSON text), the least recently used going
 * first; expired ones are dropped whenever one is stored. Per server process: every process checks
 * the same version in the database. Used by get-full-organization (one key per organization) and
 * admin list-users (one key per query).
 */
export class ListingCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
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

  /** The listing stored under `key` and `version`, if still fresh. */
  get(key: string, version: number): T | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.version !== version || this.#clock() - entry.storedAt > this.#maxAgeMs) {
      this.#delete(key, entry);
      return null;
    }
    // Most recently used last: the first key is the one to evict.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * Holds `value` (`bytes` long) under `key` and `version`, replacing what the key held; a value
   * larger than the whole budget is not held. The caller copies what must not pin larger buffers.
   */
  set(key: string, version: number, value: T, bytes: number): void {
    const previous = this.#entries.get(key);
    if (previous) this.#delete(key, previous);
    if (bytes > this.#maxBytes) return;
    const storedAt = this.#clock();
    for (const [oldKey, old] of this.#entries) {
      if (storedAt - old.storedAt > this.#maxAgeMs) this.#delete(oldKey, old);
    }
    while (this.#bytes + bytes > this.#maxBytes) {
      const [oldKey, old] = this.#entries.entries().next().value as [string, Entry<T>];
      this.#delete(oldKey, old);
    }
    this.#entries.set(key, { value, version, storedAt, bytes });
    this.#bytes += bytes;
  }

  #delete(key: string, entry: Entry<T>): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

/** A members page and its users as read (features/organization/members/types.ts RawMemberPairs). */
interface MemberPairs {
  members: RawPage<MemberDoc>;
  users: RawPage<Pick<UserDoc, "_id" | "name" | "email" | "image">>;
  /** Member index, user index; … */
  pairs: readonly number[];
}

/** One organization's lists as get-full-organization read them, and their JSON text. */
export interface OrganizationListing {
  /** The members page's size it was read with (`membersLimit`). */
  limit: number;
  members: MemberPairs;
  invitations: RawPage<InvitationDoc>;
  /** `"members":[…],"invitations":[…]`, as the answer carries it. */
  text: string;
}

/** get-full-organization's cache: one listing per organization (the last members limit asked for). */
export type OrganizationListings = ListingCache<OrganizationListing>;

/** The organization's listing of its first `limit` members held under `version`, if any. */
export function heldOrganizationListing(
  cache: OrganizationListings,
  organizationId: ObjectId,
  limit: number,
  version: number,
): OrganizationListing | null {
  const held = cache.get(organizationId.toHexString(), version);
  return held && held.limit === limit ? held : null;
}

/**
 * Holds a copy of the listing's bytes (the driver's buffers may hold a whole reply or more) and
 * answers it; another members limit replaces the organization's listing, so one member cannot fill
 * the cache with copies.
 */
export function holdOrganizationListing(
  cache: OrganizationListings,
  organizationId: ObjectId,
  version: number,
  listing: OrganizationListing,
): OrganizationListing {
  const members = copyPage(listing.members.members);
  const users = copyPage(listing.members.users);
  const invitations = copyPage(listing.invitations);
  const held: OrganizationListing = {
    ...listing,
    members: { members, users, pairs: listing.members.pairs },
    invitations,
  };
  const bytes =
    members.bytes.length + users.bytes.length + invitations.bytes.length + 2 * listing.text.length;
  cache.set(organizationId.toHexString(), version, held, bytes);
  return held;
}

function copyPage<T extends Document>(page: RawPage<T>): RawPage<T> {
  return page.length === 0 ? page : new RawPage<T>(Buffer.from(page.bytes), page.starts);
}

/** A page of admin list-users as answered: its JSON text, and its users for `auth.api`. */
export interface UsersListing {
  /** The whole answer's JSON text. */
  text: string;
  /** `{ users: [...] }` as BSON: decoded only when `auth.api` asks for the objects. */
  users: Buffer;
  total: number;
}

/** Admin list-users' cache: one page per query, under the users' listing version. */
export type UserListings = ListingCache<UsersListing>;

/** What an entry costs beyond its bytes and text: the map slot, the entry and listing objects. */
const ENTRY_OVERHEAD = 256;

/** Holds a page of list-users: its text, and its users as BSON (what `auth.api` decodes). */
export function holdUsersListing(
  cache: UserListings,
  key: string,
  version: number,
  page: { text: string; users: UserDoc[]; total: number },
): void {
  const bytes = BSON.serialize({ users: page.users });
  const users = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The key (any query: up to ~1 KB of text) and the entry's own objects count too, so that many
  // small pages (empty ones past the last user, one per offset) cannot hold more than the budget.
  const held = users.length + 2 * (page.text.length + key.length) + ENTRY_OVERHEAD;
  cache.set(key, version, { text: page.text, users, total: page.total }, held);
}

/** The users of a page held, decoded as the driver decodes a reply. */
export function usersOfListing(listing: UsersListing): UserDoc[] {
  return (BSON.deserialize(listing.users) as { users: UserDoc[] }).users;
}
