import type { Collections } from "../collections.ts";
import { isDuplicateKeyError } from "../connect.ts";
import { coreIndexes } from "./0001-core-indexes.ts";
import { organizationIndexes } from "./0002-organization-indexes.ts";
import { socialIndexes } from "./0003-social-indexes.ts";
import { adminIndexes } from "./0004-admin-indexes.ts";
import { twoFactorIndexes } from "./0005-two-factor-indexes.ts";
import { apiKeyIndexes } from "./0006-api-key-indexes.ts";
import { hashStoredTokens } from "./0007-hash-stored-tokens.ts";
import { activeTeamIndex } from "./0008-active-team-index.ts";
import { keyedLookups } from "./0009-keyed-lookups.ts";
import { timelineEntries } from "./0010-user-timeline.ts";
import { userExportIndexes } from "./0011-user-export-indexes.ts";
import { passkeyIndexes } from "./0012-passkey-indexes.ts";
import { organizationDomainIndexes } from "./0013-organization-domains.ts";
import { ssoProviderIndexes } from "./0014-sso-providers.ts";
import { samlReplayIndexes } from "./0015-saml-replays.ts";
import { eventIndexes } from "./0016-event-indexes.ts";
import { webhookIndexes } from "./0017-webhook-indexes.ts";
import { scimIndexes } from "./0018-scim.ts";
import { mailOutboxIndexes } from "./0019-mail-outbox.ts";
import { scimGroupIndexes } from "./0020-scim-groups.ts";
import { organizationAuditIndex } from "./0021-organization-audit-index.ts";
import type { Migration, MigrationSteps } from "./types.ts";

export type { Migration, MigrationSteps } from "./types.ts";

/** In order. Feature areas append theirs here; ids are never renumbered. */
export const CORE_MIGRATIONS: readonly Migration[] = [
  coreIndexes,
  organizationIndexes,
  socialIndexes,
  adminIndexes,
  twoFactorIndexes,
  apiKeyIndexes,
  hashStoredTokens,
  activeTeamIndex,
  keyedLookups,
  timelineEntries,
  userExportIndexes,
  passkeyIndexes,
  organizationDomainIndexes,
  ssoProviderIndexes,
  samlReplayIndexes,
  eventIndexes,
  webhookIndexes,
  scimIndexes,
  mailOutboxIndexes,
  scimGroupIndexes,
  organizationAuditIndex,
];

/** When each recorded migration was applied, by id (`_migrations`; `tessera migrate status`). */
export async function readAppliedMigrations(collections: Collections): Promise<Map<string, Date>> {
  return new Map((await collections.migrations.find({}).toArray()).map((doc) => [doc._id, doc.appliedAt]));
}

/**
 * Runs the migrations not yet recorded in `_migrations`. Each is idempotent, so a crash between
 * `up` and the record only means it runs again next time.
 */
export async function runMigrations(
  collections: Collections,
  migrations: readonly Migration[],
  now: () => Date,
  steps: MigrationSteps,
): Promise<string[]> {
  const done = await readAppliedMigrations(collections);
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    await migration.up(collections, now(), steps);
    try {
      await collections.migrations.insertOne({ _id: migration.id, appliedAt: now() });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error; // another instance recorded it first
    }
    applied.push(migration.id);
  }
  return applied;
}
