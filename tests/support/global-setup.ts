import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevDatabase } from "@tessera/dev-db";
import type { TestProject } from "vitest/node";

/**
 * One real MongoDB-protocol server for the whole run; each test file uses its own database in it.
 * One directory for the run's package tarballs (pack.ts packs each package once, when first asked).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runStartedAt = Date.now();
  const packDir = await mkdtemp(join(tmpdir(), "tessera-packs-"));
  project.provide("packDir", packDir);
  project.provide("runStartedAt", runStartedAt);
  const database = await startDevDatabase({ log: (line) => console.log(line) });
  project.provide("mongoUri", database.uri);
  project.provide("mongoBackend", database.backend);
  return async () => {
    await database.stop();
    await rm(packDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    mongoUri: string;
    mongoBackend: string;
    /** Where pack.ts keeps this run's tarballs. */
    packDir: string;
    /** Date.now() when the run began: a dist/ newer than this was built by this run. */
    runStartedAt: number;
  }
}
