/** A whole number ≥ 1 from the environment variable `name`, `fallback` when it is unset or empty. */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number ≥ 1, not "${raw}"`);
  return value;
}

/**
 * Seconds per run of the scenarios that hash a password (sign-in, sign-up, bare scrypt): at ~10
 * hashes per second a 5 s run counts ~50 requests, so one request more or less moves a ratio by
 * two points; 15 s brings that under one.
 */
export const HASH_SECONDS = positiveInteger("BENCH_HASH_SECONDS", 15);
