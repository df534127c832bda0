import type { SessionRefetchOptions } from "./types.ts";

/**
 * Re-reads the session when the page comes back into view or the window gets focus (at most once
 * per cooldown: both events fire together, and tab switching should not flood the server), and when
 * the browser comes back online. Attached while someone subscribes to the session, never at import
 * time; returns the function that detaches. Outside a browser it does nothing.
 */
export function watchBrowserEvents(
  options: SessionRefetchOptions,
  refetch: () => void,
  now: () => number = Date.now,
): () => void {
  if (typeof window === "undefined" || typeof document === "undefined") return () => {};
  const cooldown = options.focusCooldownMs ?? 5000;
  let lastFocusRead = now();
  const onFocus = () => {
    if (document.visibilityState === "hidden" || now() - lastFocusRead < cooldown) return;
    lastFocusRead = now();
    refetch();
  };
  const onOnline = () => refetch();
  const watchFocus = options.refetchOnWindowFocus !== false;
  const watchOnline = options.refetchWhenOnline !== false;
  if (watchFocus) {
    window.addEventListener("focus", onFocus);
    document.addEventListener("visibilitychange", onFocus);
  }
  if (watchOnline) window.addEventListener("online", onOnline);
  return () => {
    window.removeEventListener("focus", onFocus);
    document.removeEventListener("visibilitychange", onFocus);
    window.removeEventListener("online", onOnline);
  };
}
