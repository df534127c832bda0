/**
 * A value now, or a promise of it. The engine's steps answer synchronously when they have nothing to
 * wait for — a cookie-cache hit, an endpoint that reads no database, the rate limit off — so a
 * request that never waits costs no promise, microtask or timer per layer (they were most of the
 * engine's share of a cookie-cached get-session). A step that does wait returns its promise, and the
 * steps after it run when it settles: the same code either way.
 */
export type MaybePromise<T> = T | Promise<T>;

/** Only native promises: what an `async` function returns. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** `next(value)` at once for a value, after it settles for a promise (a rejection passes through). */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
