import type { Collections } from "./collections.ts";

/**
 * What an instance read of a small, rarely written collection, answered again for RECENT_READ_MS
 * (docs/security.md "Verified domains", docs/scale.md): the rows every sign-in of a company asks
 * for — its domain's policy, its SSO connection — read once a second instead of at each step.
 * A change made through the instance is seen at once: the collection's owner writes through
 * `writing`, which forgets what was read before the write starts and again once it has answered, so
 * no read that overlaps a write is remembered. A change made through another instance, or the
 * CLI's process, is seen within RECENT_READ_MS.
 *
 * Kept per instance (keyed by its collections: one per createAuth), never shared between instances.
 * @internal Exported for the tests that wait it out (sso-domains/domain-memo.test.ts,
 * sso/oidc-sign-in-commands.test.ts).
 */
export const RECENT_READ_MS = 1_000;
/** Keys remembered per instance and collection at most; the oldest read is forgotten first. */
const RECENT_READ_ENTRIES = 10_000;

interface Memo<T> {
  /** Bumped by every write: a read that started before one does not store what it read. */
  generation: number;
  rows: Map<string, { value: T; until: number }>;
}

export interface RecentReads<T> {
  /** The value read for `key` less than RECENT_READ_MS ago (null too), else `load`'s, remembered. */
  read(collections: Collections, key: string, load: () => Promise<T>): Promise<T>;
  /** Runs a write of the collection: what was read is forgotten before and after it. */
  writing<R>(collections: Collections, write: () => Promise<R>): Promise<R>;
}

/** Every memo made here, so one call forgets them all (forgetRecentReads). */
const forgetters: ((collections: Collections) => void)[] = [];

/**
 * Forgets what the instance read, in every memo.
 * @internal Exported for the tests' command counts (tests/support/test-auth.ts), which count a
 * request as if nothing had been read before it.
 */
export function forgetRecentReads(collections: Collections): void {
  for (const forget of forgetters) forget(collections);
}

/** One memo of reads of one collection, per instance. Callers share the values: read-only. */
export function recentReads<T>(): RecentReads<T> {
  const memos = new WeakMap<Collections, Memo<T>>();
  const memoOf = (collections: Collections): Memo<T> => {
    let memo = memos.get(collections);
    if (!memo) {
      memo = { generation: 0, rows: new Map() };
      memos.set(collections, memo);
    }
    return memo;
  };
  const forget = (collections: Collections) => {
    const memo = memos.get(collections);
    if (!memo) return;
    memo.generation++;
    memo.rows.clear();
  };
  forgetters.push(forget);
  return {
    async read(collections, key, load) {
      const memo = memoOf(collections);
      const started = performance.now();
      const remembered = memo.rows.get(key);
      if (remembered && remembered.until > started) return remembered.value;
      const generation = memo.generation;
      const value = await load();
      if (memo.generation === generation) {
        memo.rows.delete(key);
        if (memo.rows.size >= RECENT_READ_ENTRIES) {
          const oldest = memo.rows.keys().next().value;
          if (oldest !== undefined) memo.rows.delete(oldest);
        }
        memo.rows.set(key, { value, until: started + RECENT_READ_MS });
      }
      return value;
    },
    async writing(collections, write) {
      forget(collections);
      try {
        return await write();
      } finally {
        forget(collections);
      }
    },
  };
}
