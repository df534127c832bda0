import type { Collection, Db } from "mongodb";
import type {
  AccountDoc,
  MigrationDoc,
  RateLimitDoc,
  SessionDoc,
  UserDoc,
  VerificationDoc,
} from "./documents.ts";

export const COLLECTION_NAMES = {
  users: "users",
  sessions: "sessions",
  accounts: "accounts",
  verifications: "verifications",
  rateLimits: "rateLimits",
  migrations: "_migrations",
} as const;

export interface Collections {
  db: Db;
  users: Collection<UserDoc>;
  sessions: Collection<SessionDoc>;
  accounts: Collection<AccountDoc>;
  verifications: Collection<VerificationDoc>;
  rateLimits: Collection<RateLimitDoc>;
  migrations: Collection<MigrationDoc>;
}

export function openCollections(db: Db): Collections {
  return {
    db,
    users: db.collection<UserDoc>(COLLECTION_NAMES.users),
    sessions: db.collection<SessionDoc>(COLLECTION_NAMES.sessions),
    accounts: db.collection<AccountDoc>(COLLECTION_NAMES.accounts),
    verifications: db.collection<VerificationDoc>(COLLECTION_NAMES.verifications),
    rateLimits: db.collection<RateLimitDoc>(COLLECTION_NAMES.rateLimits),
    migrations: db.collection<MigrationDoc>(COLLECTION_NAMES.migrations),
  };
}
