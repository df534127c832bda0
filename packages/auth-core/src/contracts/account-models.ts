import { defineModel } from "./model.ts";

/**
 * A linked account (the `accounts` collection: the email-and-password account, providerId
 * "credential", and each provider's), declared once for its API views — the admin area's
 * (admin-models.ts) and the user's export (user-export.ts) pick from it — and its stored document
 * (db/documents.ts AccountDoc). The password hash and provider tokens are not declared: no view may
 * show them (docs/security.md), so the stored document adds them by hand.
 */
export const accountModel = defineModel([
  { key: "id", stored: "_id", kind: "objectId" },
  { key: "providerId", kind: "string" },
  { key: "accountId", kind: "string" },
  { key: "userId", kind: "objectId" },
  { key: "scope", kind: "string", nullable: true },
  { key: "createdAt", kind: "date" },
  { key: "updatedAt", kind: "date" },
]);
