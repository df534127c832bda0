import type { Db } from "mongodb";

/** The stored password hash of the user with `email` (undefined when there is no credential account). */
export async function credentialHashOf(db: Db, email: string): Promise<unknown> {
  const user = await db.collection("users").findOne({ email });
  const account = await db.collection("accounts").findOne({ userId: user?._id, providerId: "credential" });
  return account?.password;
}

/** Every stored reset-password token row (features/password keeps them in `verifications`). */
export function resetRows(db: Db) {
  return db
    .collection("verifications")
    .find({ identifier: { $regex: "^reset-password:" } })
    .toArray();
}
