/**
 * Bundle size of the browser client against Better Auth's, bundled the same way in the same run:
 * esbuild for the browser, minified, gzipped (level 9). Tessera's client with every namespace
 * (they are all built from one route table) against `better-auth/client` with its organization,
 * admin, two-factor, API-key, passkey, magic-link and email-OTP client plugins (the features Tessera's client has); the React entries likewise (React left external).
 * Target: Tessera's client at most half of Better Auth's. Exits 1 when it is not.
 *
 *   pnpm bench:client
 *
 * Better Auth is installed only in bench/client-bundle/ (its package.json), never by the packages.
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const TARGET_RATIO = 0.5;
const SOURCE = fileURLToPath(new URL("../packages/auth-core/src/", import.meta.url));
const BETTER_AUTH_DIR = fileURLToPath(new URL("./client-bundle/", import.meta.url));

interface Entry {
  name: string;
  code: string;
  resolveDir: string;
}

const BETTER_AUTH_PLUGINS = `import { adminClient, emailOTPClient, magicLinkClient, organizationClient, twoFactorClient } from "better-auth/client/plugins";
import { apiKeyClient } from "@better-auth/api-key/client";
import { passkeyClient } from "@better-auth/passkey/client";
const plugins = [organizationClient({ teams: { enabled: true } }), adminClient(), twoFactorClient(), apiKeyClient(), passkeyClient(), magicLinkClient(), emailOTPClient()];`;

const ENTRIES: Entry[] = [
  {
    name: "tessera client",
    code: `import { createAuthClient } from "./client/index.ts";
export const client = createAuthClient({ baseURL: "https://auth.example.com" });`,
    resolveDir: SOURCE,
  },
  {
    name: "better-auth client + 7 plugins",
    code: `import { createAuthClient } from "better-auth/client";
${BETTER_AUTH_PLUGINS}
export const client = createAuthClient({ baseURL: "https://auth.example.com", plugins });`,
    resolveDir: BETTER_AUTH_DIR,
  },
  {
    name: "tessera react",
    code: `import { createAuthClient } from "./react/index.ts";
export const client = createAuthClient({ baseURL: "https://auth.example.com" });`,
    resolveDir: SOURCE,
  },
  {
    name: "better-auth react + 7 plugins",
    code: `import { createAuthClient } from "better-auth/react";
${BETTER_AUTH_PLUGINS}
export const client = createAuthClient({ baseURL: "https://auth.example.com", plugins });`,
    resolveDir: BETTER_AUTH_DIR,
  },
];

interface Size {
  name: string;
  minified: number;
  gzipped: number;
}

async function measure(entry: Entry): Promise<Size> {
  const result = await build({
    stdin: { contents: entry.code, resolveDir: entry.resolveDir, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    platform: "browser",
    format: "esm",
    minify: true,
    write: false,
    external: ["react", "react-dom"],
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  const code = result.outputFiles[0]!.contents;
  return { name: entry.name, minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
}

const sizes: Size[] = [];
for (const entry of ENTRIES) sizes.push(await measure(entry));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log("bundle                          minified    gzipped");
for (const size of sizes)
  console.log(
    `${size.name.padEnd(32)}${kb(size.minified).padStart(10)} ${kb(size.gzipped).padStart(10)}  (${size.gzipped} bytes)`,
  );
const [tessera, betterAuth, tesseraReact, betterAuthReact] = sizes as [Size, Size, Size, Size];
const ratio = tessera.gzipped / betterAuth.gzipped;
const reactRatio = tesseraReact.gzipped / betterAuthReact.gzipped;
console.log(
  `\nclient gzipped ratio: ${ratio.toFixed(3)} (target ≤ ${TARGET_RATIO}); react: ${reactRatio.toFixed(3)}`,
);
if (ratio > TARGET_RATIO) {
  console.log("over target");
  process.exit(1);
}
