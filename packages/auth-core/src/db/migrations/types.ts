import type { Collections } from "../collections.ts";

/**
 * What a data migration is handed from the owner of the documents it writes (db/ imports no
 * feature; create-auth.ts coreMigrationSteps fills it), so that the owner's rules stay in one place.
 */
export interface MigrationSteps {
  /** features/users repairs.ts: one timeline entry for each user without one; answers how many. */
  enterEveryUser(collections: Collections): Promise<number>;
}

/** A numbered migration; `up` must be idempotent (createIndex with the same spec is a no-op). */
export interface Migration {
  id: string;
  /** `now` is the injected clock's time (for migrations that skip expired rows). */
  up(collections: Collections, now: Date, steps: MigrationSteps): Promise<void>;
}
