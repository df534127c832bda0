/**
 * A value now, or a promise of it: what the engine answers (handler.ts `Engine`). The engine's one
 * synchronous branch — a read the signed cookie cache answers (run-endpoint.ts
 * answerFromCookieCache), and what routing alone answers — costs no promise, microtask or timer,
 * and the standalone server writes such an answer in the tick the request arrived (server/server.ts);
 * every other step is plain `async`.
 */
export type MaybePromise<T> = T | Promise<T>;

/** Only native promises: what an `async` function returns. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}
