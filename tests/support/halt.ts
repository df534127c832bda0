import type { Collections } from "../../packages/auth-core/src/db/collections.ts";
import type { TestAuth } from "./test-auth.ts";

type CollectionName = Exclude<keyof Collections, "db">;
type Method = "insertOne" | "deleteOne" | "deleteMany" | "updateOne" | "updateMany";

/**
 * Stops the request in flight at the next `method` on `collection`, as a server killed there would:
 * that command never reaches the database and nothing after it runs (the call never settles). The
 * database — the real one — then holds exactly what the request wrote before. Resolves once the
 * request got there. "Crash in the middle"; tests/reliability/crash.ts does the same with
 * a real SIGKILL, at random points.
 */
export function haltAtNext(t: TestAuth, collection: CollectionName, method: Method): Promise<void> {
  const target = t.auth.context.collections[collection] as unknown as Record<Method, unknown>;
  const original = target[method];
  return new Promise((reached) => {
    target[method] = () => {
      target[method] = original;
      reached();
      return new Promise(() => {});
    };
  });
}
