import type { IncomingMessage, ServerResponse } from "node:http";
import { AuthError } from "../errors/auth-error.ts";
import type { EngineRequest, EngineResponse } from "../http/handler.ts";
import { assertDeclaredLength, parseRequestBody } from "../http/read-body.ts";
import { RequestHeaders } from "./request-headers.ts";

/**
 * node:http ⇄ the engine. The server hands the engine an `EngineRequest` made straight from the
 * IncomingMessage and writes its `EngineResponse` straight to the ServerResponse: the same engine as
 * `auth.handler`, without a Fetch Request and Response per call (they were most of the cost of a
 * cookie-cached get-session). This file is the whole adapter; `toFetchRequest`/`writeFetchResponse`
 * remain for code that holds a Fetch handler. A body is read from the IncomingMessage itself, its
 * bytes counted as they arrive, so the engine's byte cap (advanced.maxBodyBytes, http/read-body.ts)
 * applies while reading, never after buffering an unbounded upload here.
 */

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A request target split as `new URL` would: its pathname and its query without the "?". */
export interface RequestTarget {
  pathname: string;
  query: string;
}

/**
 * A path `new URL` leaves exactly as it is: path characters that need no percent-encoding, and no
 * `.` or `..` segment to resolve (any `/.`, `%2e` or `\` goes the slow way, even where harmless).
 */
const PLAIN_PATH = /^(?!.*(?:\/\.|%2e))\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/i;
/** Query characters `new URL` leaves as they are (it encodes space, quotes, <, > and non-ASCII). */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~!$&()*+,;=:@%/?[\]^`{|}]*$/;

/**
 * The target's pathname and query as `new URL(origin + target)` has them — the URL is built on the
 * server's own origin, not on the Host header (which the client controls). Most targets are already
 * in that form, and are only split (a URL parse per request was a measurable part of a
 * cookie-cached get-session); any other goes through the parser. Returns null for a request target
 * that is not an origin-form path ("*", absolute-form).
 */
export function requestTarget(req: IncomingMessage, origin: string): RequestTarget | null {
  const target = req.url ?? "";
  if (!target.startsWith("/")) return null;
  const mark = target.indexOf("?");
  const pathname = mark < 0 ? target : target.slice(0, mark);
  const query = mark < 0 ? "" : target.slice(mark + 1);
  if (PLAIN_PATH.test(pathname) && PLAIN_QUERY.test(query)) return { pathname, query };
  try {
    // Concatenation, not `new URL(target, origin)`: "//evil/x" must stay a path, not become a host.
    const url = new URL(origin + target);
    return { pathname: url.pathname, query: url.search.slice(1) };
  } catch {
    return null;
  }
}

/** Fetch Headers with Fetch's rules for repeats; rawHeaders keeps them as separate entries, as they arrived. */
function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < req.rawHeaders.length; index += 2) {
    headers.append(req.rawHeaders[index]!, req.rawHeaders[index + 1]!);
  }
  return headers;
}

export function toEngineRequest(req: IncomingMessage, target: RequestTarget): EngineRequest {
  return new NodeEngineRequest(req, target);
}

/**
 * A class, not a literal with a `readBody` closure: one object per request. The body is read only
 * when the engine asks for it, straight from node's stream: a Fetch Request and a web stream around
 * it cost ~5% of the server's busy time on every POST (docs/scale.md "Server CPU cuts, 2026-11-30").
 * An unread body is detected as before (server.ts mustCloseConnection: the request is not complete).
 */
class NodeEngineRequest implements EngineRequest {
  readonly method: string;
  readonly pathname: string;
  readonly query: string;
  readonly headers: RequestHeaders;
  readonly remoteAddress: string | null;
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage, target: RequestTarget) {
    this.method = req.method ?? "GET";
    this.pathname = target.pathname;
    this.query = target.query;
    this.headers = new RequestHeaders(req.rawHeaders);
    this.remoteAddress = req.socket.remoteAddress ?? null;
    this.#req = req;
  }

  async readBody(maxBytes: number, acceptsForm: boolean): Promise<unknown> {
    const { headers } = this;
    assertDeclaredLength(headers.get("content-length"), maxBytes);
    const text = METHODS_WITH_BODY.has(this.method) ? await readBodyText(this.#req, maxBytes) : "";
    return parseRequestBody(text, headers.get("content-type"), acceptsForm);
  }
}

/**
 * The request's body as UTF-8, its bytes counted as they arrive: past `maxBytes` it stops reading
 * (BODY_TOO_LARGE) without destroying the request — the socket stays usable so that the 413 answer
 * can still be written; the response then closes the connection (server.ts mustCloseConnection).
 * A client that goes away mid-body fails the read, as a broken web stream did.
 */
function readBodyText(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (req.destroyed) {
      reject(new Error("request body aborted by the client"));
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.off("error", onClose);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        stop();
        req.pause();
        reject(new AuthError("BODY_TOO_LARGE"));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(
        chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, total).toString("utf8"),
      );
    };
    const onClose = () => {
      if (req.complete && !req.destroyed) return;
      stop();
      reject(new Error("request body aborted by the client"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
    req.on("error", onClose);
  });
}

/** @internal Exported for bench/request-path-server.ts. */
export function toFetchRequest(req: IncomingMessage, url: URL): Request {
  const headers = requestHeaders(req);
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if (METHODS_WITH_BODY.has(method)) {
    init.body = streamRequestBody(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/**
 * A pull-based stream over the request: the socket is paused while the engine is not reading, and
 * cancelling (the engine hit its byte cap) only stops reading — the socket stays usable so that the
 * 413 answer can still be written; the response then closes the connection (see `writeFetchResponse`).
 * Readable.toWeb would destroy the request on cancel, which resets the socket before the answer.
 */
function streamRequestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let finished = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.pause();
      req.on("data", (chunk: Buffer) => {
        if (finished) return;
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once("end", () => {
        if (finished) return;
        finished = true;
        controller.close();
      });
      req.once("close", () => {
        if (finished || req.complete) return;
        finished = true;
        controller.error(new Error("request body aborted by the client"));
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      finished = true;
      req.pause();
    },
  });
}

/**
 * Writes an engine answer in one `writeHead` + `end` with a string body: Node then sends head and
 * body in a single write, with a Content-Length (keep-alive friendly).
 */
export function writeEngineResponse(res: ServerResponse, reply: EngineResponse, options: WriteOptions): void {
  const body = reply.body ?? "";
  // writeHead's flat [name, value, …] form: no intermediate object, repeated names (Set-Cookie) kept.
  const lines: string[] = [];
  for (const name in reply.headers) lines.push(name, reply.headers[name]!);
  for (const cookie of reply.setCookies) lines.push("set-cookie", cookie);
  // A HEAD answer carries the length of what GET would send (http/handler.ts answerHead).
  if (reply.headers["content-length"] === undefined)
    lines.push("content-length", String(Buffer.byteLength(body)));
  if (options.closeConnection) lines.push("connection", "close");
  res.writeHead(reply.status, lines);
  res.end(body);
}

export interface WriteOptions {
  /** Ask the client to close the connection after this response (shutdown, unread body). */
  closeConnection: boolean;
}

/**
 * Writes a Fetch Response. Engine responses are small JSON, HTML or redirects, so the body is read
 * whole and sent with a Content-Length (keep-alive friendly). Set-Cookie is copied with
 * getSetCookie(): joining several cookies into one header line would break them.
 * @internal Exported for bench/request-path-server.ts.
 */
export async function writeFetchResponse(
  res: ServerResponse,
  response: Response,
  options: WriteOptions,
): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.setHeader("content-length", body.byteLength);
  if (options.closeConnection) res.setHeader("connection", "close");
  res.end(body);
}
