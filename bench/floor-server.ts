/**
 * The floor of a correct cookie-cached get-session on this machine: node:http plus only what such a
 * request cannot skip — parse the Cookie header and verify the cache (auth-core's own
 * parseCookieHeader and readCookieCache: one HMAC-SHA256, the expiry) — then answer its JSON. No
 * routing, validation, origin checks or hooks. Bundled and run by the bench like the real server;
 * BENCH_SECRET and the two cookie names come from the environment.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readCookieCache } from "../packages/auth-core/src/features/session/cookie-cache.ts";
import { parseCookieHeader } from "../packages/auth-core/src/http/cookies.ts";

const secret = process.env.BENCH_SECRET ?? "";
const tokenName = process.env.BENCH_TOKEN_COOKIE ?? "";
const dataName = process.env.BENCH_DATA_COOKIE ?? "";

const server = createServer((req, res) => {
  const cookies = parseCookieHeader(req.headers.cookie ?? null);
  const cached = cookies.get(dataName);
  const signed = cookies.get(tokenName);
  const hit = cached && signed ? readCookieCache(cached, secret, signed, new Date()) : null;
  const body = hit ? hit.json : "null";
  res.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log(`PORT ${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
