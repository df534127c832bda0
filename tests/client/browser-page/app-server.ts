import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import type { Auth } from "@tessera/auth-core";
import { build } from "esbuild";

/**
 * The app's own server for the Chromium tests: the page and its bundle, and — for the same-origin
 * case — `auth.handler` mounted under /api/auth, as an app framework would mount it.
 */

/** A page's script bundled with code splitting, as app bundlers do: file name (app.js first) → code. */
export type PageFiles = Map<string, string>;

export async function bundlePage(entry: URL): Promise<PageFiles> {
  const result = await build({
    entryPoints: { app: fileURLToPath(entry) },
    bundle: true,
    splitting: true,
    outdir: "/page",
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  return new Map(result.outputFiles.map((file) => [file.path.replace(/^.*\//, ""), file.text]));
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Tessera client</title></head>
<body><div id="root"></div><script type="module" src="/app.js"></script></body></html>`;

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === "string") headers.set(name, value);
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : new Uint8Array(Buffer.concat(chunks));
  return new Request(origin + req.url, { method, headers, body });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const lines: string[] = [];
  for (const [name, value] of response.headers) if (name !== "set-cookie") lines.push(name, value);
  for (const cookie of response.headers.getSetCookie()) lines.push("set-cookie", cookie);
  res.writeHead(response.status, lines);
  res.end(Buffer.from(await response.arrayBuffer()));
}

export interface AppServer {
  origin: string;
  close(): Promise<void>;
}

/** `host`: the name the browser uses ("localhost" for WebAuthn, which refuses IP addresses as RP ids). */
export async function startAppServer(
  port: number,
  files: PageFiles,
  auth: Auth | null,
  host = "127.0.0.1",
): Promise<AppServer> {
  const origin = `http://${host}:${port}`;
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (auth && path?.startsWith("/api/auth/"))
      return send(res, await auth.handler(await toRequest(req, origin), { remoteAddress: "127.0.0.1" }));
    const script = files.get(path?.slice(1) ?? "");
    if (script !== undefined) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      return void res.end(script);
    }
    if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return void res.end(PAGE);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
