import { startDevDatabase } from "@tessera/dev-db";
import type { TestProject } from "vitest/node";

/** One real MongoDB-protocol server for the whole run; each test file uses its own database in it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const database = await startDevDatabase({ log: (line) => console.log(line) });
  project.provide("mongoUri", database.uri);
  project.provide("mongoBackend", database.backend);
  return () => database.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    mongoUri: string;
    mongoBackend: string;
  }
}
