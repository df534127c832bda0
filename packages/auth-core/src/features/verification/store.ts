import { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import type { VerificationDoc } from "../../db/documents.ts";

/**
 * One-time tokens kept in `verifications` (reset-password:{token}, delete-account-{token}).
 * Shared by the password and deletion features.
 */
export async function createVerification(
  collections: Collections,
  identifier: string,
  value: string,
  expiresAt: Date,
  now: Date,
): Promise<VerificationDoc> {
  const doc: VerificationDoc = { _id: new ObjectId(), identifier, value, expiresAt, createdAt: now, updatedAt: now };
  await collections.verifications.insertOne(doc);
  return doc;
}

/** Reads without consuming; null when missing or expired. */
export function findVerification(
  collections: Collections,
  identifier: string,
  now: Date,
): Promise<VerificationDoc | null> {
  return collections.verifications.findOne({ identifier: { $eq: identifier }, expiresAt: { $gt: now } });
}

/**
 * Consumes atomically (findOneAndDelete): of any number of concurrent uses exactly one gets the
 * row; null when missing, expired or already used.
 */
export function consumeVerification(
  collections: Collections,
  identifier: string,
  now: Date,
): Promise<VerificationDoc | null> {
  return collections.verifications.findOneAndDelete({ identifier: { $eq: identifier }, expiresAt: { $gt: now } });
}
