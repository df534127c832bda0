import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface BenchConfigs {
  /** Sessions read from the database on every get-session. */
  database: string;
  /** session.cookieCache on: get-session answers from the signed cookie. */
  cookieCache: string;
  /** Rate limiting on (in MongoDB, the default), 127.0.0.1 trusted as a proxy: the burst scenario. */
  rateLimited: string;
  remove(): Promise<void>;
}

/**
 * TESSERA_CONFIG modules for the bench servers; rate limiting off in the two throughput servers (it
 * would answer 429), on in the burst one.
 */
export async function writeBenchConfigs(): Promise<BenchConfigs> {
  const dir = await mkdtemp(join(tmpdir(), "tessera-bench-"));
  const database = join(dir, "database.mjs");
  const cookieCache = join(dir, "cookie-cache.mjs");
  await writeFile(database, "export default { rateLimit: { enabled: false } };\n");
  await writeFile(
    cookieCache,
    "export default { rateLimit: { enabled: false }, session: { cookieCache: { enabled: true } } };\n",
  );
  const rateLimited = join(dir, "rate-limited.mjs");
  await writeFile(
    rateLimited,
    'export default { rateLimit: { enabled: true }, advanced: { trustedProxies: ["127.0.0.1"] } };\n',
  );
  return { database, cookieCache, rateLimited, remove: () => rm(dir, { recursive: true, force: true }) };
}
