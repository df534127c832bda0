import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, MongoClient } from "mongodb";
import { checkDataInvariants, type Finding } from "../../../packages/cli/src/invariants.ts";
import { type DatabaseProcess, startDatabaseProcess } from "./database-process.ts";
import { createAgent, type HttpTarget } from "./http-client.ts";
import { DB_NAME, type RunningServer, startServer } from "./server-process.ts";

/**
 * One scenario's world: its own database process, the standalone server in front of it (directly
 * or through `databaseUri`, e.g. a proxy), a direct driver connection for the checks, and the HTTP
 * target for the traffic. Everything it starts, `close` stops.
 */
export interface Stack {
  database: DatabaseProcess;
  server: RunningServer;
  db: Db;
  target: HttpTarget;
  workDir: string;
  startServer(databaseUri?: string): Promise<RunningServer>;
  /** Findings of `tessera doctor`'s checker that count something (none on a sound database). */
  findings(): Promise<Finding[]>;
  close(): Promise<void>;
}

export interface StackOptions {
  connections: number;
  hangAfterMs: number;
  configLines?: string;
  /** Puts something (a proxy) between the server and the database; gets the database's port. */
  route?: (databasePort: number) => Promise<string>;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const database = await startDatabaseProcess();
  const workDir = await mkdtemp(join(tmpdir(), "tessera-reliability-"));
  const serverUri = options.route ? await options.route(database.port) : database.uri;
  const client = new MongoClient(database.uri, { serverSelectionTimeoutMS: 10_000 });
  const launch = (databaseUri = serverUri) =>
    startServer({ databaseUri, workDir, configLines: options.configLines ?? "" });
  const server = await launch();
  const target: HttpTarget = {
    apiURL: server.apiURL,
    origin: server.origin,
    agent: createAgent(options.connections),
    hangAfterMs: options.hangAfterMs,
  };
  const stack: Stack = {
    database,
    server,
    db: client.db(DB_NAME),
    target,
    workDir,
    async startServer(databaseUri) {
      const started = await launch(databaseUri);
      stack.server = started;
      target.apiURL = started.apiURL;
      target.origin = started.origin;
      return started;
    },
    findings: async () => (await checkDataInvariants(stack.db)).filter((finding) => finding.count > 0),
    async close() {
      target.agent.destroy();
      await stack.server.stop();
      await client.close();
      await database.destroy();
      await rm(workDir, { recursive: true, force: true });
    },
  };
  return stack;
}
