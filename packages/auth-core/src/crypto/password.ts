import { scrypt as nodeScrypt, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import * as ScryptModule from "scrypt-kdf";

// scrypt-kdf is CommonJS: under Node ESM its functions sit on `default` only, while its
// typings declare named exports. Take whichever the loader gives.
const Scrypt: typeof ScryptModule =
  (ScryptModule as unknown as { default?: typeof ScryptModule }).default ?? ScryptModule;

/**
 * Password hashing with scrypt, via scrypt-kdf which runs node's crypto.scrypt off the event loop.
 * The stored form is versioned — `s1$<base64 scrypt-kdf key>` — and scrypt-kdf embeds its own
 * parameters, so raising them keeps old hashes verifiable and `needsRehash` tells the caller to
 * re-hash after the next successful sign-in (docs/security.md "Password storage").
 */
export interface PasswordHashParams {
  logN: number;
  r: number;
  p: number;
}

/**
 * N=2^14, r=8, p=5: one of the OWASP Password Storage Cheat Sheet's equivalent minimums for scrypt
 * (N=2^17 p=1, N=2^16 p=2, N=2^15 p=3, N=2^14 p=5, which OWASP counts as equal: the higher p, the
 * less memory per run).
 * This one keeps a run at 16 MiB, so the server's peak memory stays under its 150 MB target while
 * sign-ins queue (N=2^15 p=3 measured 156 MB; N=2^17 would need 128 MiB per run). The former
 * default, N=2^14, r=8, p=1, was below OWASP's minimum: such hashes still verify and are re-hashed
 * at their owner's next sign-in. Raising any of the three later works the same way
 * (docs/security.md "Password storage").
 * @internal Exported for bench/ceilings.ts.
 */
export const DEFAULT_PASSWORD_PARAMS: PasswordHashParams = { logN: 14, r: 8, p: 5 };

/**
 * Each scrypt run holds 128·N·r bytes (16 MiB at these parameters; the p passes run one after
 * the other in the same block, so p adds time, not memory). libuv would run four at once
 * (its thread pool) whatever the core count; more runs than cores add memory, not throughput, so
 * they queue here instead. This keeps peak RSS bounded under a sign-in flood: at most cores × 16 MiB
 * of scrypt blocks (32 MiB on a two-core server), however many sign-ins wait. The one exception to
 * "no module-level state": the thread pool and memory it guards belong to the process, not to an
 * auth instance, so two instances must share the limit.
 */
const MAX_CONCURRENT_KDF = Math.max(1, availableParallelism());
let runningKdf = 0;
const waitingKdf: Array<() => void> = [];

async function withKdfSlot<T>(work: () => Promise<T>): Promise<T> {
  if (runningKdf >= MAX_CONCURRENT_KDF) await new Promise<void>((resolve) => waitingKdf.push(resolve));
  else runningKdf++;
  try {
    return await work();
  } finally {
    const next = waitingKdf.shift();
    if (next) next();
    else runningKdf--;
  }
}

const FORMAT_PREFIX = "s1$";

/** NIST SP 800-63B: normalise so the same password typed on two keyboards matches. */
export function normalizePassword(password: string): string {
  return password.normalize("NFKC");
}

export async function hashPassword(
  password: string,
  params: PasswordHashParams = DEFAULT_PASSWORD_PARAMS,
): Promise<string> {
  const key = await withKdfSlot(() => Scrypt.kdf(normalizePassword(password), params));
  return FORMAT_PREFIX + Buffer.from(key).toString("base64");
}

export interface PasswordCheck {
  valid: boolean;
  needsRehash: boolean;
}

/** Returns valid false for a malformed stored hash rather than throwing: a corrupt row must not be a 500. */
export async function verifyPassword(
  storedHash: string,
  password: string,
  params: PasswordHashParams = DEFAULT_PASSWORD_PARAMS,
): Promise<PasswordCheck> {
  if (BETTER_AUTH_HASH.test(storedHash)) return verifyBetterAuthHash(storedHash, password);
  if (!storedHash.startsWith(FORMAT_PREFIX)) return { valid: false, needsRehash: false };
  const key = Buffer.from(storedHash.slice(FORMAT_PREFIX.length), "base64");
  let valid: boolean;
  try {
    valid = await withKdfSlot(() => Scrypt.verify(key, normalizePassword(password)));
  } catch {
    return { valid: false, needsRehash: false };
  }
  if (!valid) return { valid: false, needsRehash: false };
  const stored = Scrypt.viewParams(key);
  const needsRehash = stored.logN < params.logN || stored.r < params.r || stored.p < params.p;
  return { valid: true, needsRehash };
}

/**
 * Hashes imported from Better Auth (`tessera import --from better-auth`): `<salt>:<key>`, both hex,
 * the key scrypt(NFKC password, the salt's hex text, N=2^14, r=16, p=1, 64 bytes). They verify
 * here and are always due for a re-hash, so the owner's next sign-in stores Tessera's own format.
 */
const BETTER_AUTH_HASH = /^[0-9a-f]{32}:[0-9a-f]{128}$/;
const BETTER_AUTH_PARAMS = { N: 16384, r: 16, p: 1, maxmem: 128 * 16384 * 16 * 2 };

async function verifyBetterAuthHash(storedHash: string, password: string): Promise<PasswordCheck> {
  const [salt, keyHex] = storedHash.split(":") as [string, string];
  const expected = Buffer.from(keyHex, "hex");
  const derived = await withKdfSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        nodeScrypt(normalizePassword(password), salt, expected.length, BETTER_AUTH_PARAMS, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  ).catch(() => null);
  if (!derived || !timingSafeEqual(derived, expected)) return { valid: false, needsRehash: false };
  return { valid: true, needsRehash: true };
}

/**
 * Spends the same scrypt work as a real check, so an unknown email answers in the same time as a
 * wrong password (docs/decisions/0011-sign-up-and-enumeration.md "Sign-up and enumeration").
 */
export async function spendPasswordWork(
  password: string,
  params: PasswordHashParams = DEFAULT_PASSWORD_PARAMS,
): Promise<void> {
  await withKdfSlot(() => Scrypt.kdf(normalizePassword(password), params));
}
