import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from "../../../packages/auth-core/src/server/build.ts";
import { type ServeProcess, spawnServerProcess } from "../../e2e/serve-process.ts";

/**
 * The standalone server as `pnpm serve` runs it: the esbuild bundle of server/main.ts on plain node
 * with the same flags and environment. Bundled into a folder of its own (not dist-serve/, which
 * bundle.test.ts and the bench empty and rebuild while this suite may be running).
 */
const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "packages", "auth-core");
const BUNDLE_DIR = join(PACKAGE_ROOT, "dist-reliability");
const BUNDLE = join(BUNDLE_DIR, "main.mjs");

export const SERVER_SECRET = "reliability-secret-0123456789abcdef0123456789";
export const DB_NAME = "reliability";

let built: Promise<void> | null = null;

function buildServerBundle(): Promise<void> {
  built ??= (async () => {
    await rm(BUNDLE_DIR, { recursive: true, force: true });
    await build({
      entryPoints: { main: SERVER_ENTRY },
      outdir: BUNDLE_DIR,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      sourcemap: true,
      logLevel: "warning",
    });
  })();
  return built;
}

/**
 * The options every scenario runs with (a TESSERA_CONFIG module, docs/decisions/0003-standalone-server.md "Standalone
 * server"). Rate limiting is off: all traffic comes from 127.0.0.1, and the limits would refuse the
 * load as one client. Invitations do not need a verified email, so invitees need no mail round trip.
 */
function configModule(extra: string): string {
  return `export default {
  rateLimit: { enabled: false },
  user: { deleteUser: { enabled: true } },
  organization: { requireEmailVerificationOnInvitation: false },
  ${extra}
};
`;
}

export interface ServerOptions {
  databaseUri: string;
  /** Extra option lines for the config module, e.g. `advanced: { requestTimeoutMs: 4000 },`. */
  configLines?: string;
  /** Folder for the config module. */
  workDir: string;
}

export interface RunningServer {
  process: ServeProcess;
  /** http://127.0.0.1:<port>/api/auth — traffic goes to 127.0.0.1 only. */
  apiURL: string;
  /** The server's own origin (its default baseURL), sent as Origin on state-changing requests. */
  origin: string;
  pid: number;
  /** Resident memory of the server process in bytes (Linux /proc), NaN where unknown. */
  rssBytes(): number;
  /** Open TCP sockets of the server process (Linux /proc/<pid>/fd), NaN where unknown. */
  openSockets(): number;
  stop(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  await buildServerBundle();
  await mkdir(options.workDir, { recursive: true });
  const configPath = join(options.workDir, "tessera.config.mjs");
  await writeFile(configPath, configModule(options.configLines ?? ""));
  const child = spawnServerProcess([...SERVER_NODE_FLAGS, BUNDLE], {
    ...SERVER_ENV,
    MONGODB_URI: options.databaseUri,
    TESSERA_DB_NAME: DB_NAME,
    TESSERA_SECRET: SERVER_SECRET,
    TESSERA_CONFIG: configPath,
    PORT: "0",
  });
  const url = await child.listening;
  const port = Number(new URL(url).port);
  const pid = child.child.pid ?? 0;
  return {
    process: child,
    apiURL: `http://127.0.0.1:${port}/api/auth`,
    origin: `http://localhost:${port}`,
    pid,
    rssBytes: () => readRss(pid),
    openSockets: () => countSockets(pid),
    stop: async () => {
      if (child.child.exitCode !== null || child.child.signalCode !== null) return;
      child.child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill(), 10_000);
      await child.exited;
      clearTimeout(timer);
    },
  };
}

function readRss(pid: number): number {
  try {
    const kb = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function countSockets(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:");
      } catch {
        return false;
      }
    }).length;
  } catch {
    return Number.NaN;
  }
}
