import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The template's server (templates/remix-app/server.mjs) picks its port and development base URL
 * with server-listen.mjs: tested here without installing an app. Loaded by URL: it is the app's
 * plain JavaScript, not part of this workspace's TypeScript.
 */
interface ServerListen {
  readListenOptions(
    argv: string[],
    env: NodeJS.ProcessEnv,
    production: boolean,
  ): { port: number; host: string | undefined; strictPort: boolean };
  devBaseURL(set: string | undefined, port: number): string;
  listen(
    server: Server,
    options: { port: number; host: string | undefined; strictPort: boolean },
  ): Promise<number>;
}

const MODULE = pathToFileURL(
  join(import.meta.dirname, "..", "..", "templates", "remix-app", "server-listen.mjs"),
);
const { devBaseURL, listen, readListenOptions } = (await import(MODULE.href)) as ServerListen;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

function httpServer(): Server {
  const server = createServer((_req, res) => res.end("ok"));
  servers.push(server);
  return server;
}

describe("the template's development base URL", () => {
  it("follows the port the server got when none is set, or a localhost one is", () => {
    expect(devBaseURL(undefined, 5174)).toBe("http://localhost:5174");
    expect(devBaseURL("", 5174)).toBe("http://localhost:5174");
    expect(devBaseURL("http://localhost:5173", 5174)).toBe("http://localhost:5174");
    expect(devBaseURL("http://127.0.0.1:5173/", 5175)).toBe("http://localhost:5175");
  });

  it("keeps a base URL set for another host (a tunnel, a custom domain)", () => {
    expect(devBaseURL("https://my-app.trycloudflare.com", 5174)).toBe("https://my-app.trycloudflare.com");
    expect(devBaseURL("http://192.168.1.20:5173", 5174)).toBe("http://192.168.1.20:5173");
    expect(devBaseURL("http://localhost.evil.example", 5174)).toBe("http://localhost.evil.example");
  });
});

describe("the template's server port", () => {
  it("takes Vite's flags in development, PORT and HOST otherwise", () => {
    expect(readListenOptions([], {}, false)).toEqual({ port: 5173, host: "localhost", strictPort: false });
    expect(readListenOptions(["--port", "5180", "--strictPort"], { PORT: "9" }, false)).toEqual({
      port: 5180,
      host: "localhost",
      strictPort: true,
    });
    expect(readListenOptions([], { PORT: "8080", HOST: "0.0.0.0" }, true)).toEqual({
      port: 8080,
      host: "0.0.0.0",
      strictPort: true,
    });
    expect(readListenOptions([], {}, true)).toEqual({ port: 3000, host: undefined, strictPort: true });
    expect(() => readListenOptions(["--port", "http"], {}, false)).toThrow("not a port: NaN");
  });

  it("moves to the next port when the one asked for is taken, as Vite does", async () => {
    const taken = httpServer();
    const port = await listen(taken, { port: 0, host: "127.0.0.1", strictPort: false });
    const next = await listen(httpServer(), { port, host: "127.0.0.1", strictPort: false });
    expect(next).toBeGreaterThan(port);
    expect(next).toBeLessThanOrEqual(port + 20);
  });

  it("with --strictPort (and in production) a taken port is an error", async () => {
    const port = await listen(httpServer(), { port: 0, host: "127.0.0.1", strictPort: false });
    await expect(listen(httpServer(), { port, host: "127.0.0.1", strictPort: true })).rejects.toMatchObject({
      code: "EADDRINUSE",
    });
  });
});
