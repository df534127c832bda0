import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthOptions } from "../config/options.ts";
import { type Auth, createAuth } from "../create-auth.ts";
import { isDatabaseUnavailableError } from "../db/connect.ts";
import { AuthError } from "../errors/auth-error.ts";
import type { ErrorCode } from "../errors/catalogue.ts";
import { repairEvents } from "../features/events/index.ts";
import { withCors } from "../http/cors.ts";
import { corsOptionsOf, type Engine, type EngineResponse, engineOf, jsonReply } from "../http/handler.ts";
import { isPromise, type MaybePromise } from "../http/maybe-promise.ts";
import type { DevOutbox } from "../mail/outbox.ts";
import { readServerEnv, ServerConfigError } from "./env-config.ts";
import { type ConfigOptions, deepMerge, loadConfigModule } from "./load-config.ts";
import { requestTarget, toEngineRequest, writeEngineResponse } from "./node-bridge.ts";
import { buildAuthOptions, type OwnedResources } from "./resources.ts";

export interface StartServerOptions {
  /** Where PORT, HOST, MONGODB_URI, TESSERA_* and SMTP_URL are read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Base for a relative TESSERA_CONFIG and for the dev database's data dir. @default process.cwd() */
  cwd?: string;
  /** Options merged over the environment and TESSERA_CONFIG (deep merge of plain objects). */
  overrides?: ConfigOptions;
  /** Startup and shutdown notes and warnings. @default console.error */
  log?: (line: string) => void;
  /** Lines of mails printed by the dev outbox (no SMTP_URL). @default console.log */
  printMail?: (line: string) => void;
  /** How long shutdown waits for in-flight requests before cutting connections. @default 10000 */
  shutdownGraceMs?: number;
  /** How often expired rows are removed (`auth.cleanup()`). @default 3600000 (1 hour) */
  cleanupIntervalMs?: number;
}

export interface RunningServer {
  /** e.g. `http://localhost:3000/api/auth`. */
  url: string;
  port: number;
  auth: Auth;
  /** The printing outbox when no SMTP_URL (and no configured mailer) is set, else null. */
  outbox: DevOutbox | null;
  /** Stops accepting, lets in-flight requests finish (bounded), then closes auth, mailer and dev database. */
  close(): Promise<void>;
}

const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/**
 * The standalone server (docs/decisions/0003-standalone-server.md "Standalone server"): node:http around the engine behind
 * `auth.handler` — the same code path, minus a Fetch Request and Response per call (node-bridge.ts).
 * The port is bound before `createAuth` runs because with PORT=0 the default base URL needs the port
 * the OS picked. Until migrations have run, requests are answered 503 (none reaches an unmigrated
 * database); the port is announced only after that.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const log = options.log ?? ((line: string) => console.error(line));
  const settings = readServerEnv(env);
  const fromFile = settings.configPath ? await loadConfigModule(settings.configPath, cwd) : {};
  if (settings.configPath) log(`tessera: options from TESSERA_CONFIG ${settings.configPath}`);
  const custom = deepMerge(fromFile, options.overrides ?? {});
  const owned: OwnedResources = { database: null, smtp: null, outbox: null };
  let http: Server | null = null;
  try {
    const base = await buildAuthOptions(settings, custom, owned, {
      cwd,
      env,
      log,
      printMail: options.printMail ?? ((line) => console.log(line)),
    });
    const state = createRequestState();
    http = createServer((req, res) => serveRequest(state, req, res, log));
    const port = await listen(http, settings.port, settings.host);
    const authOptions = deepMerge(base, custom);
    authOptions.baseURL ??= `http://localhost:${port}`;
    // Both halves are partial; createAuth validates the merged whole and names any missing option.
    const auth = createAuth(authOptions as AuthOptions);
    // The engine behind auth.handler, served without Fetch objects (node-bridge.ts).
    const engine = engineOf(auth.handler);
    if (!engine) throw new Error("auth.handler has no engine");
    state.origin = new URL(authOptions.baseURL).origin;
    state.basePath = auth.context.options.basePath;
    try {
      await auth.migrate();
    } catch (error) {
      await auth.close();
      throw explainStartupFailure(error);
    }
    // Pages on trusted origins call the standalone server cross-origin (http/cors.ts).
    state.engine = withCors(engine, corsOptionsOf(auth.context));
    const stopCleanup = scheduleCleanup(auth, options.cleanupIntervalMs ?? DEFAULT_CLEANUP_INTERVAL_MS, log);
    // Events a crash left between a change and its relay are stored now, not an hour from now.
    const { retentionDays } = auth.context.options.events;
    void repairEvents(auth.context.collections, auth.context.eventSources, { retentionDays }).catch(
      (error: unknown) =>
        log(`tessera server: event repair failed: ${error instanceof Error ? error.message : error}`),
    );
    const server = http;
    let closing: Promise<void> | null = null;
    const grace = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
    return {
      url: `http://${displayHost(settings.host)}:${port}${state.basePath}`,
      port,
      auth,
      outbox: owned.outbox,
      close: () => {
        stopCleanup();
        closing ??= shutdown(server, state, grace).finally(async () => {
          await auth.close();
          await releaseResources(owned);
        });
        return closing;
      },
    };
  } catch (error) {
    if (http?.listening) await new Promise((resolve) => http?.close(resolve));
    await releaseResources(owned);
    throw error;
  }
}

interface RequestState {
  /** The engine behind `auth.handler`, set once migrations have run. */
  engine: Engine | null;
  origin: string;
  basePath: string;
  isClosing: boolean;
  /** Requests being served: a count, not a set of promises, so tracking costs nothing per request. */
  inFlight: number;
  /** Called when `inFlight` comes back to zero (shutdown waits on it). */
  onIdle: (() => void) | null;
}

function createRequestState(): RequestState {
  return {
    engine: null,
    origin: "http://localhost",
    basePath: "/api/auth",
    isClosing: false,
    inFlight: 0,
    onIdle: null,
  };
}

/** Resolves once no request is being served. */
function whenIdle(state: RequestState): Promise<void> {
  if (state.inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const previous = state.onIdle;
    state.onIdle = () => {
      previous?.();
      resolve();
    };
  });
}

/**
 * Not `async`: an engine answer that needed no waiting (a cookie-cache hit) is written in the same
 * tick, without a promise (http/maybe-promise.ts). Every path ends in `respond` or `failRequest`,
 * which ends the request's count in `inFlight`.
 */
function serveRequest(
  state: RequestState,
  req: IncomingMessage,
  res: ServerResponse,
  log: (line: string) => void,
): void {
  state.inFlight++;
  try {
    const reply = answerRequest(state, req);
    if (isPromise(reply)) {
      reply.then(
        (value) => respond(state, req, res, log, value),
        (error: unknown) => failRequest(state, req, res, log, error),
      );
    } else respond(state, req, res, log, reply);
  } catch (error) {
    failRequest(state, req, res, log, error);
  }
}

function answerRequest(state: RequestState, req: IncomingMessage): MaybePromise<EngineResponse> {
  // Only between bind and the end of migrations; the port is not announced before.
  if (!state.engine) return errorAnswer("SERVICE_UNAVAILABLE");
  const target = requestTarget(req, state.origin);
  if (!target || !isUnderBasePath(target.pathname, state.basePath)) return errorAnswer("NOT_FOUND");
  return state.engine(toEngineRequest(req, target));
}

function respond(
  state: RequestState,
  req: IncomingMessage,
  res: ServerResponse,
  log: (line: string) => void,
  reply: EngineResponse,
): void {
  try {
    writeEngineResponse(res, reply, { closeConnection: mustCloseConnection(state, req) });
  } catch (error) {
    failRequest(state, req, res, log, error);
    return;
  }
  finishRequest(state);
}

function failRequest(
  state: RequestState,
  req: IncomingMessage,
  res: ServerResponse,
  log: (line: string) => void,
  error: unknown,
): void {
  log(`tessera server: request failed: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  if (res.headersSent) res.destroy();
  else {
    try {
      sendError(state, req, res, "INTERNAL_SERVER_ERROR");
    } catch {
      res.destroy();
    }
  }
  finishRequest(state);
}

/** The request is no longer in flight: shutdown may be waiting for the last one. */
function finishRequest(state: RequestState): void {
  if (--state.inFlight === 0 && state.onIdle) {
    const onIdle = state.onIdle;
    state.onIdle = null;
    onIdle();
  }
}

function errorAnswer(code: ErrorCode): EngineResponse {
  const error = new AuthError(code);
  return jsonReply(error.status, error.toJSON());
}

function sendError(state: RequestState, req: IncomingMessage, res: ServerResponse, code: ErrorCode): void {
  writeEngineResponse(res, errorAnswer(code), { closeConnection: mustCloseConnection(state, req) });
}

/**
 * While shutting down, and when a request body was left unread (413 before the end of a large
 * upload), the connection is not reused: Node would otherwise read and discard the rest of it.
 */
function mustCloseConnection(state: RequestState, req: IncomingMessage): boolean {
  return state.isClosing || (hasRequestBody(req) && !req.complete);
}

/**
 * Read from rawHeaders: `req.headers` is built on first read, a cost the engine (which reads
 * rawHeaders, request-headers.ts) otherwise never pays. A response written before the parser has
 * finished the request (in the same tick, for an answer that waited for nothing) always asks this.
 */
function hasRequestBody(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!;
    if (name.length === 17 && name.toLowerCase() === "transfer-encoding") return true;
    if (name.length === 14 && name.toLowerCase() === "content-length" && raw[index + 1] !== "0") return true;
  }
  return false;
}

/** An unreachable database is the usual first-run problem: say so in one line, without a stack. */
function explainStartupFailure(error: unknown): unknown {
  if (!isDatabaseUnavailableError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ServerConfigError(
    `cannot reach the database (${reason}). Check MONGODB_URI, or unset it to use the embedded local database.`,
  );
}

function isUnderBasePath(pathname: string, basePath: string): boolean {
  return pathname === basePath || pathname.startsWith(`${basePath}/`);
}

function listen(http: Server, port: number, host: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`port ${port} is already in use (set PORT to another port, or PORT=0 for any free one)`)
          : error,
      );
    };
    http.once("error", onError);
    http.listen(port, host, () => {
      http.off("error", onError);
      resolve((http.address() as AddressInfo).port);
    });
  });
}

/** What a person types: loopback and wildcard binds are reached at localhost (the default base URL). */
function displayHost(host: string | undefined): string {
  if (host === undefined || ["127.0.0.1", "0.0.0.0", "::", "::1", "localhost"].includes(host)) {
    return "localhost";
  }
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Stop accepting, drop idle keep-alive sockets at once (they would hold `close` open for the
 * keep-alive timeout), let in-flight requests finish — their responses carry Connection: close —
 * and after `graceMs` cut whatever is left.
 */
async function shutdown(http: Server, state: RequestState, graceMs: number): Promise<void> {
  state.isClosing = true;
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  http.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([whenIdle(state), deadline]);
  http.closeIdleConnections();
  await Promise.race([closed, deadline]);
  clearTimeout(timer);
  http.closeAllConnections();
  await closed;
}

/** Expired sessions, tokens and rate-limit entries are reclaimed hourly (there are no TTL indexes). */
const DEFAULT_CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

function scheduleCleanup(auth: Auth, intervalMs: number, log: (line: string) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    auth
      .cleanup()
      .catch((error: unknown) =>
        log(`tessera server: cleanup failed: ${error instanceof Error ? error.message : error}`),
      )
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

async function releaseResources(owned: OwnedResources): Promise<void> {
  owned.smtp?.close();
  await owned.database?.stop();
}
