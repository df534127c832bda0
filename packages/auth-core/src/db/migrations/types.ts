import type { Collections } from "../collections.ts";

/** A numbered migration; `up` must be idempotent (createIndex with the same spec is a no-op). */
export interface Migration {
  id: string;
  up(collections: Collections): Promise<void>;
}
