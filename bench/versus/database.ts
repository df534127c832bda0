import { MongoClient, ObjectId } from "mongodb";

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

/**
 * BENCH_VERSUS_BYSTANDERS=<n> (bench/versus-passwordless.ts, versus-sso.ts; default 0): `n` more
 * users in the database named by `uri`'s path, written straight to the driver in each product's
 * shape (Tessera's `users` with their address claims, Better Auth's `user`), so that a row's lookups
 * run against a user table of a production's size instead of the few accounts the bench signs in.
 * Not through the products' APIs (100,000 sign-ups would hash 100,000 passwords): an experiment the
 * report names, not part of the default comparison. Nobody signs in as them.
 */
export async function addBystanders(
  uri: string,
  product: "tessera" | "betterAuth",
  count: number,
): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    const db = client.db();
    const now = new Date();
    for (let from = 0; from < count; from += 1000) {
      const users = Array.from({ length: Math.min(1000, count - from) }, (_, k) => ({
        _id: new ObjectId(),
        email: `bystander-${from + k}@example.org`,
        emailVerified: true,
        name: `Bystander ${from + k}`,
        image: null,
        createdAt: now,
        updatedAt: now,
      }));
      await db.collection(product === "tessera" ? "users" : "user").insertMany(users);
      if (product === "tessera")
        await db
          .collection<{ _id: string }>("emailClaims")
          .insertMany(users.map((user) => ({ _id: user.email, userId: user._id, createdAt: now })));
    }
  } finally {
    await client.close();
  }
}
