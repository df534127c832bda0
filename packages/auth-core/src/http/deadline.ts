import { AuthError } from "../errors/auth-error.ts";

/**
 * Bounds a request (advanced.requestTimeoutMs, security matrix N3): a database that accepts a
 * connection and then never answers would otherwise hold the caller for the driver's socket timeout
 * — or forever, with an app-provided client on the driver's defaults. Past the bound the caller gets
 * SERVICE_UNAVAILABLE; the work itself cannot be recalled and may still complete. 0 means no bound.
 */
export function withinRequestTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  if (timeoutMs === 0) return work;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const cause = new Error(`request exceeded advanced.requestTimeoutMs (${timeoutMs} ms)`);
      reject(new AuthError("SERVICE_UNAVAILABLE", { cause }));
    }, timeoutMs);
  });
  // The loser is not awaited by anyone: keep its rejection (if any) from being reported as unhandled.
  work.catch(() => {});
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
