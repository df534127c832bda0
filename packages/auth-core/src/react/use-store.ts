import { useCallback, useMemo, useRef, useSyncExternalStore } from "react";
import { reviveDates } from "../client/request.ts";
import type { AuthStore, ClientError, StoreState } from "../client/types.ts";

export interface HookState<T> {
  data: T | null;
  error: ClientError | null;
  isPending: boolean;
  /** True while a re-read is in flight after a first answer; `data` still shows the last value. */
  isRefetching: boolean;
  refetch(): Promise<void>;
}

/**
 * A hook over one store. Initial data stands in for the store's value until its first read has
 * answered — on the server (getServerSnapshot) and in the browser's first render alike, so
 * hydration finds what the server rendered — and seeds the store when the component subscribes
 * (in the browser only: subscribing never happens on the server), so no read is sent. Nothing is
 * written to the store during render: a client created at module scope on a server is shared by
 * every request, and one user's session must not reach another's page.
 */
export function useStore<T>(store: AuthStore<T>, initialData: T | null | undefined): HookState<T> {
  const initial = useRef<StoreState<T> | null>(null);
  if (initial.current === null && initialData !== undefined)
    initial.current = {
      data: initialData && reviveDates(initialData),
      error: null,
      isPending: false,
      isRefetching: false,
    };
  const subscribe = useCallback(
    (listener: () => void) => {
      if (initial.current) store.hydrate(initial.current.data);
      return store.subscribe(listener);
    },
    [store],
  );
  const snapshot = () => {
    const state = store.get();
    return state.isPending && initial.current ? initial.current : state;
  };
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  return useMemo(
    () => ({
      ...state,
      refetch: async () => {
        await store.refetch();
      },
    }),
    [state, store],
  );
}
