import { MongoClient } from "mongodb";

/**
 * Gives the user with `email` the admin role, in the database named by `uri`'s path. Both
 * products keep the role on the user document (Tessera's `users`, Better Auth's `user`) and
 * neither has an API that makes the first admin: each bench database's owner is promoted here.
 */
export async function promoteToAdmin(uri: string, collection: string, email: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    const result = await client
      .db()
      .collection(collection)
      .updateOne({ email }, { $set: { role: "admin" } });
    if (result.matchedCount !== 1) throw new Error(`no user ${email} in ${collection}`);
  } finally {
    await client.close();
  }
}
