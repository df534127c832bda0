import type { Collections } from "../collections.ts";

/** A numbered migration; `up` must be idempotent (createIndex with the same spec is a no-op). */
export interface Migration {
  id: string;
  /** `now` is the injected clock's time (for migrations that skip expired rows). */
  up(collections: Collections, now: Date): Promise<void>;
}
