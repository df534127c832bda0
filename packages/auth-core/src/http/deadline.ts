import { AuthError } from "../errors/auth-error.ts";

/**
 * The `Date.now()` time past which a request started now has been answered SERVICE_UNAVAILABLE by
 * withinRequestTimeout (Infinity without a bound). Work that checks it before each database command
 * (the rate limiter) stops there instead of running on for nobody. A number, not an AbortSignal: no
 * allocation on the hot path.
 */
export function deadlineOf(timeoutMs: number): number {
  return timeoutMs === 0 ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
}

/** Throws SERVICE_UNAVAILABLE once `deadlineMs` has passed: call it before starting database work. */
export function assertBeforeDeadline(deadlineMs: number): void {
  if (Date.now() < deadlineMs) return;
  const cause = new Error("request deadline passed: no further database work is started for it");
  throw new AuthError("SERVICE_UNAVAILABLE", { cause });
}

/**
 * Bounds a request (advanced.requestTimeoutMs, docs/security.md): a database that accepts a
 * connection and then never answers would otherwise hold the caller for the driver's socket timeout
 * — or forever, with an app-provided client on the driver's defaults. Past the bound the caller gets
 * SERVICE_UNAVAILABLE; the work itself cannot be recalled and may still complete, except what checks
 * assertBeforeDeadline() before starting database work (the rate limiter, the endpoint's start). 0 means no bound.
 */
export function withinRequestTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  if (timeoutMs === 0) return work;
  // One promise and one timer, no Promise.race: this runs on every request that waits (one that
  // answers without waiting, such as a cookie-cache hit, skips it: handler.ts).
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
