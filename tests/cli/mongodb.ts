// The driver for bench/cli-scale.ts, which is not a workspace package (tests/ resolves mongodb).
export { MongoClient, ObjectId } from "mongodb";
