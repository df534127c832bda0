/**
 * A child of bench/request-path.ts: one node:http server in front of one auth instance, answering
 * either through the engine directly (MODE=engine, what the standalone server does) or through
 * Fetch objects and auth.handler (MODE=fetch, what any other host does). Everything else is equal.
 */
import { createServer } from "node:http";
import { engineOf } from "../packages/auth-core/src/http/handler.ts";
import { createAuth } from "../packages/auth-core/src/index.ts";
import {
  requestTarget,
  toEngineRequest,
  toFetchRequest,
  writeEngineResponse,
  writeFetchResponse,
} from "../packages/auth-core/src/server/node-bridge.ts";

const ORIGIN = "http://127.0.0.1";
const auth = createAuth({
  database: { uri: process.env.MONGODB_URI!, dbName: process.env.DB_NAME! },
  secret: "bench-secret-0123456789abcdef0123456789abcdef",
  baseURL: ORIGIN,
  session: { cookieCache: { enabled: true } },
  rateLimit: { enabled: false },
  logger: { info: () => {}, warn: () => {}, error: () => {} },
});
await auth.migrate();
const engine = engineOf(auth.handler)!;
const byEngine = process.env.MODE === "engine";

const server = createServer(async (req, res) => {
  if (byEngine) {
    const target = requestTarget(req, ORIGIN)!;
    writeEngineResponse(res, await engine(toEngineRequest(req, target)), { closeConnection: false });
  } else {
    const response = await auth.handler(toFetchRequest(req, new URL(ORIGIN + req.url)), {
      remoteAddress: req.socket.remoteAddress ?? null,
    });
    await writeFetchResponse(res, response, { closeConnection: false });
  }
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") process.stdout.write(`listening ${address.port}\n`);
});
