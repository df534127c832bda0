import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const HERE = dirname(fileURLToPath(import.meta.url));
/** Inside bench/versus so that node resolves better-auth and mongodb from this package. */
export const BETTER_AUTH_SERVER = join(HERE, "dist", "better-auth-server.mjs");

/**
 * Compiles better-auth-server.ts to plain JavaScript, its packages left as imports: node runs it
 * without tsx, whose loader thread would count in the server's RSS (as bench/serve-bundle.ts).
 */
export async function buildBetterAuthServer(): Promise<string> {
  await build({
    entryPoints: [join(HERE, "better-auth-server.ts")],
    outfile: BETTER_AUTH_SERVER,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
  return BETTER_AUTH_SERVER;
}
