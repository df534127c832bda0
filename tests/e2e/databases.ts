import { MongoClient } from "mongodb";

/** Drops one database of a server the caller does not own (the shared test server, MONGODB_URI). */
export async function dropDatabase(uri: string, dbName: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}
