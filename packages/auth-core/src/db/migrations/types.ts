import type { Collections } from "../collections.ts";
import type { ObjectId } from "../ids.ts";

/**
 * What a data migration is handed from the owner of the documents it writes (db/ imports no
 * feature; create-auth.ts coreMigrationSteps fills it), so that the owner's rules stay in one place.
 */
export interface MigrationSteps {
  /** features/users repairs.ts: one timeline entry for each user without one; answers how many. */
  enterEveryUser(collections: Collections): Promise<number>;
  /** features/users store.ts: a user by id (0020 reads a directory user's address). */
  findUserById(collections: Collections, userId: ObjectId): Promise<{ email: string } | null>;
}

/** A numbered migration; `up` must be idempotent (createIndex with the same spec is a no-op). */
export interface Migration {
  id: string;
  /** `now` is the injected clock's time (for migrations that skip expired rows). */
  up(collections: Collections, now: Date, steps: MigrationSteps): Promise<void>;
}
