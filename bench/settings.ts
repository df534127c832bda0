/** A whole number ≥ 1 from the environment variable `name`, `fallback` when it is unset or empty. */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number ≥ 1, not "${raw}"`);
  return value;
}
