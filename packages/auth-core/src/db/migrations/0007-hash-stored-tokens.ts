import { deleteAccountIdentifier } from "../../features/deletion/rules.ts";
import { resetPasswordIdentifier } from "../../features/password/rules.ts";
import type { Migration } from "./types.ts";

/** Tokens as issued: reset 24 characters, delete-account 32 (a SHA-256 in base64url is 43). */
const PLAIN_TOKEN = /^(reset-password:|delete-account-)([A-Za-z0-9]{24}|[a-z0-9]{32})$/;

/**
 * Security matrix E5: reset-password and delete-account rows stored before tokens were hashed get
 * the identifier they have now, so a link mailed before the upgrade still works. Idempotent: a
 * hashed identifier no longer matches PLAIN_TOKEN.
 */
export const hashStoredTokens: Migration = {
  id: "0007-hash-stored-tokens",
  async up({ verifications }) {
    const rows = await verifications
      .find(
        { identifier: { $regex: "^(?:reset-password:|delete-account-)" } },
        { projection: { identifier: 1 } },
      )
      .toArray();
    for (const row of rows) {
      const plain = PLAIN_TOKEN.exec(row.identifier);
      if (!plain) continue;
      const [, prefix, token = ""] = plain;
      const identifier =
        prefix === "reset-password:" ? resetPasswordIdentifier(token) : deleteAccountIdentifier(token);
      await verifications.updateOne({ _id: row._id }, { $set: { identifier } });
    }
  },
};
