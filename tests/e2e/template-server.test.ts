import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

/**
 * The template's server (templates/remix-app/server.mjs) picks its port and base URL
 * with server-listen.mjs: tested here without installing an app. Loaded by URL: it is the app's
 * plain JavaScript, not part of this workspace's TypeScript.
 */
interface ServerListen {
  readListenOptions(
    argv: string[],
    env: NodeJS.ProcessEnv,
    production: boolean,
  ): { port: number; host: string | undefined; strictPort: boolean };
  followedBaseURL(set: string | undefined, port: number): string;
  listen(
    server: Server,
    options: { port: number; host: string | undefined; strictPort: boolean },
  ): Promise<number>;
}

const MODULE = pathToFileURL(
  join(import.meta.dirname, "..", "..", "templates", "remix-app", "server-listen.mjs"),
);
const { followedBaseURL, listen, readListenOptions } = (await import(MODULE.href)) as ServerListen;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

function httpServer(): Server {
  const server = createServer((_req, res) => res.end("ok"));
  servers.push(server);
  return server;
}

describe("the template's base URL, in development and production", () => {
  it("follows the port the server got when none is set, or a localhost one is", () => {
    expect(followedBaseURL(undefined, 5174)).toBe("http://localhost:5174");
    expect(followedBaseURL("", 5174)).toBe("http://localhost:5174");
    expect(followedBaseURL("http://localhost:5173", 5174)).toBe("http://localhost:5174");
    expect(followedBaseURL("http://127.0.0.1:5173/", 5175)).toBe("http://localhost:5175");
    // Production's default: the base URL the app was created with names 5173, the server 3000.
    expect(followedBaseURL("http://localhost:5173", 3000)).toBe("http://localhost:3000");
  });

  it("keeps a base URL naming this machine on the port the server got", () => {
    expect(followedBaseURL("http://127.0.0.1:3000", 3000)).toBe("http://127.0.0.1:3000");
    expect(followedBaseURL("http://localhost:5174/", 5174)).toBe("http://localhost:5174/");
  });

  it("keeps a base URL set for another host (a tunnel, a custom domain)", () => {
    expect(followedBaseURL("https://my-app.trycloudflare.com", 5174)).toBe(
      "https://my-app.trycloudflare.com",
    );
    expect(followedBaseURL("http://192.168.1.20:5173", 5174)).toBe("http://192.168.1.20:5173");
    expect(followedBaseURL("http://localhost.evil.example", 5174)).toBe("http://localhost.evil.example");
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
