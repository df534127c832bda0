import { reviveDates } from "./request.ts";
import type { AuthStore, ClientResult, StoreState } from "./types.ts";

/** An AuthStore plus what the client drives it with. */
export interface ClientStore<T> extends AuthStore<T> {
  /**
   * A call changed what this store shows: re-read it — after the read in flight, if any (it may
   * have started before the change). A store nobody has read or subscribed to stays unread.
   */
  invalidate(): void;
  /** The value once no read is in flight: the read in flight, else the value held, else a first read. */
  settled(): Promise<StoreState<T>>;
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
  let state: StoreState<T> = { data: null, error: null, isPending: true, isRefetching: false };
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

  /** One read at a time: callers while it is in flight share it. */
  const read = (): Promise<StoreState<T>> => {
    if (inFlight) return inFlight;
    inFlight = load().then(
      (result) => {
        inFlight = null;
        publish({
          data: result.error ? (result.error.status === 401 ? null : state.data) : result.data,
          error: result.error,
          isPending: false,
          isRefetching: false,
        });
        return state;
      },
      (error: unknown) => {
        // A programming error (no baseURL outside a browser): thrown to the caller, not kept.
        inFlight = null;
        if (hasValue) publish({ ...state, isRefetching: false });
        throw error;
      },
    );
    // A re-read of a value already shown: the page keeps it and may show that it is being refreshed.
    if (hasValue) publish({ ...state, isRefetching: true });
    return inFlight;
  };

  const refetch = async (): Promise<StoreState<T>> => {
    let value = await read();
    // The store was made stale while the read was in flight: it may predate the change.
    while (readAgain) {
      readAgain = false;
      value = await read();
    }
    return value;
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
      publish({
        data: data === null ? null : reviveDates(data),
        error: null,
        isPending: false,
        isRefetching: false,
      });
    },
    settled: () => inFlight ?? (hasValue ? Promise.resolve(state) : refetch()),
    invalidate() {
      if (inFlight) readAgain = true;
      else if (hasValue || listeners.size > 0) void refetch();
    },
  };
}
