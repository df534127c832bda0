/**
 * The pure part of the rate limiter (docs/security.md "Rate limits and the request deadline"): what one key's window state
 * is, and whether a request at a given time is admitted. No I/O and no clock of its own, so both
 * storages (rate-limit.ts) make the same decisions and the rules are table-tested.
 *
 * Time is cut into fixed windows of `rule.window` seconds aligned to the epoch, the same on every
 * instance. An admission in window `w` takes a numbered slot `1..max`; it is admitted when its slot
 * number plus the admissions of window `w - 1` that are still inside the trailing `window` seconds
 * stays within `max`. Because the previous window's admissions leave that count one by one (each
 * when it is `window` seconds old), this is the exact sliding log — at most `max` admissions in any
 * `window`-second span — while the state that has to be shared is just "which slots of this window
 * are taken", which a unique `_id` insert decides atomically.
 */

export interface RateLimitRule {
  window: number;
  max: number;
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** What one process knows of one key: its current window and the one before. */
export interface WindowState {
  /** Index of the current window: ⌊time / window⌋. */
  window: number;
  /** The next slot this process will try to claim in `window` (1-based). */
  next: number;
  /** When the admissions known in `window` leave the sliding span (ms since the epoch). */
  current: number[];
  /** The same for window `window - 1`. */
  previous: number[];
  /** True when rows of windows before `window - 1` may still be stored: the next window change deletes them. */
  hasOlderRows: boolean;
  /** From then on nothing here can refuse a request (two windows later): the state may be forgotten. */
  idleFromMs: number;
}

export const windowMs = (rule: RateLimitRule) => rule.window * 1000;

const windowIndexAt = (rule: RateLimitRule, nowMs: number) => Math.floor(nowMs / windowMs(rule));

/**
 * The state for window `index`: unchanged when it is already there; otherwise the current window's
 * admissions become the previous ones (or none, when a window was skipped) and slots start at 1.
 */
export function enterWindow(state: WindowState | undefined, rule: RateLimitRule, nowMs: number): WindowState {
  const index = windowIndexAt(rule, nowMs);
  if (state !== undefined && state.window >= index) return state;
  const adjacent = state?.window === index - 1;
  return {
    window: index,
    next: 1,
    current: [],
    previous: adjacent ? state.current : [],
    hasOlderRows:
      state !== undefined &&
      (adjacent ? state.previous.length > 0 : state.current.length + state.previous.length > 0),
    idleFromMs: (index + 2) * windowMs(rule),
  };
}

/**
 * Admits slot `state.next` at `nowMs` when it fits beside the previous window's admissions still in
 * the span; otherwise says when the oldest admission that keeps it out leaves the span.
 */
export function decideAdmission(state: WindowState, rule: RateLimitRule, nowMs: number): RateLimitDecision {
  let counted = 0;
  for (const leavesAt of state.previous) if (leavesAt > nowMs) counted++;
  if (state.next + counted <= rule.max) return { allowed: true };
  const stillCounted = state.previous.filter((leavesAt) => leavesAt > nowMs);
  // Newest first, the admission at position `max` is the one whose departure frees a slot; a slot
  // claimed elsewhere whose time this process never learned makes the list short: wait for the window.
  const known = [...stillCounted, ...state.current].sort((a, b) => b - a);
  const freesAt = known[rule.max - 1] ?? (state.window + 1) * windowMs(rule);
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - nowMs) / 1000)) };
}

/** Takes slot `state.next` for an admission at `nowMs`; returns the slot number. Synchronous, so one process never hands a slot out twice. */
export function takeSlot(state: WindowState, rule: RateLimitRule, nowMs: number): number {
  state.current.push(nowMs + windowMs(rule));
  return state.next++;
}
