import type { AnyBulkWriteOperation } from "mongodb";
import { sha256Base64Url } from "../../crypto/random.ts";
import type { VerificationDoc } from "../documents.ts";
import type { Migration } from "./types.ts";

/** Tokens as issued: reset 24 of [A-Za-z0-9], delete-account 32 of [a-z0-9] (a SHA-256 in base64url is 43). */
const PLAIN_RESET = /^reset-password:([A-Za-z0-9]{24})$/;
const PLAIN_DELETE = /^delete-account-([a-z0-9]{32})$/;
const BATCH = 500;

/*
 * The identifiers as this migration writes them, frozen here: a migration must keep doing what it
 * did when it shipped, whatever the features' rules (password/rules.ts resetPasswordIdentifier,
 * deletion/rules.ts deleteAccountIdentifier) become — and db/ imports no feature.
 */
const resetPasswordIdentifier = (token: string) => `reset-password:${sha256Base64Url(token)}`;
const deleteAccountIdentifier = (token: string) => `delete-account-${sha256Base64Url(token)}`;

/**
 * docs/security.md: reset-password and delete-account rows stored before tokens were hashed get
 * the identifier they have now, so a link mailed before the upgrade still works. Only live rows
 * that belong to a user: expired ones are dead links (cleanup removes them), and the inert rows an
 * unknown-email request leaves (empty value) link to nobody — anyone can make many of those, and
 * they must not slow a start. Read with a cursor, written in batches. Idempotent: a hashed
 * identifier matches neither plain shape.
 */
export const hashStoredTokens: Migration = {
  id: "0007-hash-stored-tokens",
  async up({ verifications }, now) {
    const rows = verifications.find(
      {
        identifier: { $regex: "^(?:reset-password:|delete-account-)" },
        expiresAt: { $gt: now },
        value: { $ne: "" },
      },
      { projection: { identifier: 1 } },
    );
    let batch: AnyBulkWriteOperation<VerificationDoc>[] = [];
    for await (const row of rows) {
      const identifier = hashedIdentifier(row.identifier);
      if (identifier === null) continue;
      batch.push({ updateOne: { filter: { _id: row._id }, update: { $set: { identifier } } } });
      if (batch.length === BATCH) {
        await verifications.bulkWrite(batch, { ordered: false });
        batch = [];
      }
    }
    if (batch.length > 0) await verifications.bulkWrite(batch, { ordered: false });
  },
};

function hashedIdentifier(stored: string): string | null {
  const reset = PLAIN_RESET.exec(stored)?.[1];
  if (reset !== undefined) return resetPasswordIdentifier(reset);
  const remove = PLAIN_DELETE.exec(stored)?.[1];
  return remove === undefined ? null : deleteAccountIdentifier(remove);
}
