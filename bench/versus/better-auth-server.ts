/**
 * Better Auth 1.7 as a standalone node:http server, for the side-by-side bench (bench/versus.ts):
 * built into dist/ by build.ts and run with the same node flags and environment as Tessera's
 * bundle. Configured like the Tessera server it is compared with: email and password, the
 * organization and admin plugins, passkeys (@better-auth/passkey, the RP id and origin of
 * versus-servers.ts PASSKEY_RP) and email codes (emailOTP, its code handed to the bench on stdout
 * as `bench-otp <email> <code>`, as Tessera's hook does), single sign-on (@better-auth/sso, its
 * identity provider's origin trusted) only when VERSUS_IDP_ORIGIN names one, rate limiting off, the
 * cookie cache on only when VERSUS_COOKIE_CACHE=1, and passwords hashed with node's native scrypt at Tessera's parameters
 * (crypto/password.ts: N=2^14, r=8, p=5, a 64-byte key and a 32-byte salt, as scrypt-kdf stores).
 *
 * Environment: MONGODB_URI (its path names the database), BETTER_AUTH_SECRET, VERSUS_COOKIE_CACHE,
 * VERSUS_IDP_ORIGIN (bench/sso-idp.ts's origin, for the SSO row).
 * Prints `Better Auth listening on <origin>/api/auth` once it accepts connections.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { passkey } from "@better-auth/passkey";
import { sso } from "@better-auth/sso";
import { betterAuth } from "better-auth";
import { mongodbAdapter } from "better-auth/adapters/mongodb";
import { toNodeHandler } from "better-auth/node";
import { admin, emailOTP, organization } from "better-auth/plugins";
import { MongoClient } from "mongodb";

const SCRYPT = { N: 2 ** 14, r: 8, p: 5, maxmem: 64 * 1024 * 1024 };
const KEY_BYTES = 64;
const SALT_BYTES = 32;

function deriveKey(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, SCRYPT, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `<salt hex>:<key hex>` */
async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return `${salt.toString("hex")}:${(await deriveKey(password, salt)).toString("hex")}`;
}

async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const [salt, key] = hash.split(":");
  if (!salt || !key) return false;
  return timingSafeEqual(await deriveKey(password, Buffer.from(salt, "hex")), Buffer.from(key, "hex"));
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const client = new MongoClient(required("MONGODB_URI"));
await client.connect();
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
if (address === null || typeof address === "string") throw new Error("no TCP address");
const origin = `http://127.0.0.1:${address.port}`;

const idpOrigin = process.env.VERSUS_IDP_ORIGIN;

const auth = betterAuth({
  baseURL: origin,
  secret: required("BETTER_AUTH_SECRET"),
  // No client given and transactions off: FerretDB v1 has no multi-document transactions.
  database: mongodbAdapter(client.db(), { transaction: false }),
  emailAndPassword: { enabled: true, password: { hash: hashPassword, verify: verifyPassword } },
  session: { cookieCache: { enabled: process.env.VERSUS_COOKIE_CACHE === "1", maxAge: 60 } },
  rateLimit: { enabled: false },
  ...(idpOrigin ? { trustedOrigins: [idpOrigin] } : {}),
  telemetry: { enabled: false },
  logger: { level: "error" },
  plugins: [
    organization({ membershipLimit: 200 }),
    admin(),
    passkey({ rpID: "localhost", origin: "http://localhost:3000" }),
    emailOTP({
      sendVerificationOTP: async ({ email, otp }) => {
        process.stdout.write(`bench-otp ${email} ${otp}\n`);
      },
    }),
    ...(idpOrigin ? [sso()] : []),
  ],
});

server.on("request", toNodeHandler(auth.handler));
console.log(`Better Auth listening on ${origin}/api/auth`);
