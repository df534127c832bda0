import { AuthError } from "../errors/auth-error.ts";

/**
 * Bounds a request (advanced.requestTimeoutMs, security matrix N3): a database that accepts a
 * connection and then never answers would otherwise hold the caller for the driver's socket timeout
 * — or forever, with an app-provided client on the driver's defaults. Past the bound the caller gets
 * SERVICE_UNAVAILABLE; the work itself cannot be recalled and may still complete. 0 means no bound.
 */
export function withinRequestTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  if (timeoutMs === 0) return work;
  // One promise and one timer per request, no Promise.race: this runs on every request, the
  // cookie-cached get-session included, whose whole cost is a few microseconds.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const cause = new Error(`request exceeded advanced.requestTimeoutMs (${timeoutMs} ms)`);
      reject(new AuthError("SERVICE_UNAVAILABLE", { cause }));
    }, timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
