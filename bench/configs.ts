import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BenchConfigs {
  /** Sessions read from the database on every get-session. */
  database: string;
  /** session.cookieCache on: get-session answers from the signed cookie. */
  cookieCache: string;
  remove(): Promise<void>;
}

/** TESSERA_CONFIG modules for the two bench servers; rate limiting off in both (it would answer 429). */
export async function writeBenchConfigs(): Promise<BenchConfigs> {
  const dir = await mkdtemp(join(tmpdir(), "tessera-bench-"));
  const database = join(dir, "database.mjs");
  const cookieCache = join(dir, "cookie-cache.mjs");
  await writeFile(database, "export default { rateLimit: { enabled: false } };\n");
  await writeFile(
    cookieCache,
    "export default { rateLimit: { enabled: false }, session: { cookieCache: { enabled: true } } };\n",
  );
  return { database, cookieCache, remove: () => rm(dir, { recursive: true, force: true }) };
}
