/**
 * How the app's server (server.mjs) picks its port and its base URL. Apart from
 * server.mjs so that it can be tested without starting anything.
 */

/**
 * The command line of `npm run dev -- --port 5180 --strictPort --host 0.0.0.0` (Vite's flags), with
 * PORT and HOST from the environment as defaults.
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @param {boolean} production
 */
export function readListenOptions(argv, env, production) {
  const flagValue = (flag) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const port = Number(flagValue("--port") ?? env.PORT ?? (production ? 3000 : 5173));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`not a port: ${port}`);
  return {
    port,
    // Production binds every interface (as remix-serve did); development this machine only (as Vite).
    host: flagValue("--host") ?? env.HOST ?? (production ? undefined : "localhost"),
    // Production takes the port it was given or fails; development moves on, as Vite does.
    strictPort: production || argv.includes("--strictPort"),
  };
}

/**
 * The base URL the app runs with, in development and production alike: the one set
 * (TESSERA_BASE_URL, from the environment or .env) when it names another host (a tunnel, a deployed
 * domain) or this machine on the port the server got, else `http://localhost:<port>` — a base URL
 * naming another port would refuse every signed-in form as coming from another origin.
 * @param {string | undefined} set
 * @param {number} port
 */
export function followedBaseURL(set, port) {
  const local = set?.match(/^https?:\/\/(localhost|127\.0\.0\.1)(?::(\d+))?\/?$/);
  if (set && (!local || local[2] === String(port))) return set;
  return `http://localhost:${port}`;
}

/**
 * Listens on `port`, or on the next free one (up to 20 further) unless `strictPort`; resolves with
 * the port it got.
 * @param {import("node:http").Server} server
 * @param {{ port: number, host: string | undefined, strictPort: boolean }} options
 * @returns {Promise<number>}
 */
export async function listen(server, { port, host, strictPort }) {
  for (let attempt = port; ; attempt++) {
    try {
      await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(attempt, host, () => {
          server.off("error", reject);
          resolve(undefined);
        });
      });
      const address = server.address();
      return typeof address === "object" && address ? address.port : attempt;
    } catch (error) {
      if (error.code !== "EADDRINUSE" || strictPort || attempt >= port + 20 || port === 0) throw error;
      console.log(`  port ${attempt} is in use, trying ${attempt + 1}`);
    }
  }
}
