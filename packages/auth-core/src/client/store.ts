import { reviveDates } from "./request.ts";
import type { AuthStore, ClientResult, StoreState } from "./types.ts";

/** An AuthStore plus what the client drives it with. */
export interface ClientStore<T> extends AuthStore<T> {
  /**
   * A call changed what this store shows: re-read it — after the read in flight, if any (it may
   * have started before the change). A store nobody has read or subscribed to stays unread.
   */
  invalidate(): void;
}

export interface StoreHooks {
  /** The first subscriber arrived (browser listeners start here, never at import time). */
  onActive?(): void;
  /** The last subscriber left. */
  onIdle?(): void;
}

/**
 * A value read from the server with `load`, for `useSyncExternalStore` and for plain subscribers.
 * Snapshots are immutable and keep their identity while the data does not change. A 401 clears the
 * data (signed out); any other error keeps the last data beside the error.
 */
export function createStore<T>(load: () => Promise<ClientResult<T>>, hooks: StoreHooks = {}): ClientStore<T> {
  let state: StoreState<T> = { data: null, error: null, isPending: true };
  let hasValue = false;
  let inFlight: Promise<StoreState<T>> | null = null;
  let readAgain = false;
  const listeners = new Set<() => void>();

  const publish = (next: StoreState<T>) => {
    hasValue = true;
    if (JSON.stringify(next) === JSON.stringify(state)) return;
    state = next;
    for (const listener of [...listeners]) listener();
  };

  const refetch = (): Promise<StoreState<T>> => {
    inFlight ??= load().then((result) => {
      inFlight = null;
      publish({
        data: result.error ? (result.error.status === 401 ? null : state.data) : result.data,
        error: result.error,
        isPending: false,
      });
      if (readAgain) {
        readAgain = false;
        return refetch();
      }
      return state;
    });
    return inFlight;
  };

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) hooks.onActive?.();
      if (!hasValue) void refetch();
      return () => {
        if (listeners.delete(listener) && listeners.size === 0) hooks.onIdle?.();
      };
    },
    refetch,
    hydrate(data) {
      if (hasValue || inFlight) return;
      publish({ data: data === null ? null : reviveDates(data), error: null, isPending: false });
    },
    invalidate() {
      if (inFlight) readAgain = true;
      else if (hasValue || listeners.size > 0) void refetch();
    },
  };
}
