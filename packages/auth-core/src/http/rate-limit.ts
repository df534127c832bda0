import type { Collections } from "../db/collections.ts";
import { isDuplicateKeyError } from "../db/connect.ts";
import { rateLimitAddress } from "./client-ip.ts";
import { assertBeforeDeadline } from "./deadline.ts";
import {
  decideAdmission,
  enterWindow,
  type RateLimitDecision,
  type RateLimitRule,
  takeSlot,
  type WindowState,
  windowMs,
} from "./rate-limit-window.ts";

/**
 * Rate limiting (docs/security.md "Rate limits and the request deadline"): at most `max`
 * admitted requests in any `window` seconds per client and path — a sliding log, so a burst cannot
 * pass twice the limit across a window boundary. How the log is kept cheaply is in
 * rate-limit-window.ts (the decision) and createDatabaseRateLimiter below (the storage).
 */
export type { RateLimitRule };

export interface RateLimitConfig {
  window: number;
  max: number;
  customRules: Record<string, RateLimitRule | false>;
}

// /delete-user and the two-factor settings take a password: a stolen session must not test
// guesses at the general rate.
const STRICT_AUTH_PATHS = [
  "/sign-in",
  "/sign-up",
  "/change-password",
  "/change-email",
  "/delete-user",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/get-totp-uri",
  "/two-factor/generate-backup-codes",
  // A mailed code is checked here (features/passwordless): guesses at the sign-in rate.
  "/email-otp",
  // A passkey-first sign-up creates an account, as /sign-up does (docs/passkeys.md).
  "/passkey/verify-registration",
];
const MAIL_PATHS = [
  "/request-password-reset",
  "/forget-password",
  "/send-verification-email",
  "/sign-in/magic-link",
  "/email-otp/send-verification-otp",
  "/email-otp/request-password-reset",
  "/forget-password/email-otp",
];

/** The rule for a path (without the base path): custom rule, then the built-in special ones, then the default. */
export function ruleForPath(path: string, config: RateLimitConfig): RateLimitRule | null {
  const custom = config.customRules[path];
  if (custom !== undefined) return custom === false ? null : custom;
  if (MAIL_PATHS.some((prefix) => path === prefix)) return { window: 60, max: 3 };
  if (STRICT_AUTH_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) {
    return { window: 10, max: 3 };
  }
  if (path.startsWith("/two-factor/verify")) return { window: 10, max: 3 };
  return { window: config.window, max: config.max };
}

/**
 * One request of `ip` to `path` against its rule: null when admitted (or unlimited), else the whole
 * seconds to wait. HTTP requests (http/handler.ts) and `auth.api` calls made with `rateLimit: true`
 * on a browser's behalf (http/api.ts) count in the same buckets. No resolvable address is one
 * shared bucket ("unknown"), so limits fail closed rather than open.
 */
export async function hitRateLimit(
  auth: { options: { rateLimit: RateLimitConfig & { enabled: boolean } }; now(): Date },
  limiter: RateLimiter,
  ip: string | null,
  path: string,
  deadlineMs: number,
): Promise<number | null> {
  if (!auth.options.rateLimit.enabled) return null;
  const rule = ruleForPath(path, auth.options.rateLimit);
  if (!rule) return null;
  const decision = await limiter.hit(`${rateLimitAddress(ip)}|${path}`, rule, auth.now(), deadlineMs);
  return decision.allowed ? null : decision.retryAfterSeconds;
}

export interface RateLimiter {
  /**
   * Counts one request of `key` under `rule` at `now` (the injected clock). `deadlineMs` is the
   * request's deadline on the `Date.now()` clock (advanced.requestTimeoutMs): once it has passed the
   * caller has been answered SERVICE_UNAVAILABLE, so no further database command is sent and this
   * throws that error instead.
   */
  hit(key: string, rule: RateLimitRule, now: Date, deadlineMs?: number): Promise<RateLimitDecision>;
}

/** Past this many remembered keys, the states that can no longer refuse anything are dropped. */
const STATES_BEFORE_SWEEP = 100_000;

/**
 * One process's window states by `<key>|<window>s`. `forgetLive`: whether a state that still counts
 * may be dropped when the map stays full — yes for the database limiter (its rows hold the truth and
 * a forgotten state is relearned on the next duplicate slot), no for the memory one (it is the truth).
 */
function createWindowStates(forgetLive: boolean) {
  const states = new Map<string, WindowState>();
  let sweepAt = STATES_BEFORE_SWEEP;
  return (id: string, rule: RateLimitRule, nowMs: number): WindowState => {
    const known = states.get(id);
    const state = enterWindow(known, rule, nowMs);
    if (state === known) return state;
    if (states.size >= sweepAt) {
      for (const [other, { idleFromMs }] of states) if (idleFromMs <= nowMs) states.delete(other);
      if (forgetLive) {
        for (const other of states.keys()) {
          if (states.size < STATES_BEFORE_SWEEP / 2) break;
          states.delete(other);
        }
      }
      // A map of live states only is swept again when it has doubled, not on every new key.
      sweepAt = Math.max(STATES_BEFORE_SWEEP, states.size * 2);
    }
    states.set(id, state);
    return state;
  };
}

const WINDOW_DIGITS = 16;
const SLOT_DIGITS = 10;
const windowPrefix = (id: string, window: number) => `${id}|${String(window).padStart(WINDOW_DIGITS, "0")}|`;
const rowId = (id: string, window: number, slot: number) =>
  windowPrefix(id, window) + String(slot).padStart(SLOT_DIGITS, "0");

/**
 * A duplicate slot means another instance (or this one before a restart) claimed it; the read
 * catches this process up, so a second duplicate needs yet another claim in between. Past this many
 * rounds the request is refused: endless contention is itself a flood (fail closed).
 */
const MAX_CLAIM_ROUNDS = 3;

/**
 * The limiter whose state lives in MongoDB, so that several instances share it. One row per
 * admission, `_id = <key>|<window>s|<window index>|<slot>`, inserted once and never updated:
 * FerretDB v1 does not apply `$inc`, `findOneAndUpdate` or compare-and-set filters atomically under
 * concurrency (measured: 40 parallel `$inc` upserts on one `_id` left counts of 2 to 12), but a
 * unique `_id` insert is atomic everywhere. It also scans the whole collection for every filter but
 * `_id` equality (measured: an `_id` range read 22 ms at 1,000 rows, 350 ms at 20,000, where an
 * insert stays near 1.5 ms) — so the hot path is one insert and nothing else:
 *
 * - The slot to claim comes from this process's memory (rate-limit-window.ts), handed out
 *   synchronously, so concurrent requests in one process never collide and a request the window
 *   state refuses costs no database command at all.
 * - A key's claims go to the database one at a time: a burst waits for its own inserts instead of
 *   filling the connection pool (and FerretDB's single writer) ahead of every other client.
 * - Only a duplicate slot (another instance, or a restart) costs a read of this key's two windows.
 * - When a key enters a new window, the rows of windows before the previous one — expired, since
 *   every admission in them is over `window` seconds old — go with one `_id`-range delete, once per
 *   key and window (auth.cleanup() still removes the rows of keys that never come back).
 *
 * Across instances, one that never saw another's admissions of the previous window counts only its
 * own there: in that case a span holds up to `2 × max` (`max` per fixed window), never more.
 */
export function createDatabaseRateLimiter(collections: Collections): RateLimiter {
  const stateOf = createWindowStates(true);
  const { rateLimits } = collections;

  async function learnWindows(state: WindowState, id: string): Promise<void> {
    const rows = await rateLimits
      .find(
        { _id: { $gte: windowPrefix(id, state.window - 1), $lt: windowPrefix(id, state.window + 1) } },
        { projection: { _id: 1, count: 1, expiresAt: 1 } },
      )
      .toArray();
    const current = windowPrefix(id, state.window);
    state.current = [];
    state.previous = [];
    for (const row of rows) {
      if (!row._id.startsWith(current)) state.previous.push(row.expiresAt.getTime());
      else {
        state.current.push(row.expiresAt.getTime());
        state.next = Math.max(state.next, row.count + 1);
      }
    }
  }

  /**
   * Inserts `slot` (taken already); on a duplicate, learns the key's windows and takes the next
   * slot the state allows. Runs in the key's turn (`inTurn`), after the request's decision.
   */
  async function claimSlot(
    state: WindowState,
    id: string,
    rule: RateLimitRule,
    nowMs: number,
    firstSlot: number,
    deadlineMs: number,
  ): Promise<RateLimitDecision> {
    let slot = firstSlot;
    for (let round = 1; ; round++) {
      assertBeforeDeadline(deadlineMs);
      try {
        const expiresAt = new Date(nowMs + windowMs(rule));
        await rateLimits.insertOne({ _id: rowId(id, state.window, slot), count: slot, expiresAt });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        if (round === MAX_CLAIM_ROUNDS) return { allowed: false, retryAfterSeconds: Math.ceil(rule.window) };
        assertBeforeDeadline(deadlineMs);
        await learnWindows(state, id);
        const decision = decideAdmission(state, rule, nowMs);
        if (!decision.allowed) return decision;
        slot = takeSlot(state, rule, nowMs);
        continue;
      }
      if (state.hasOlderRows) {
        state.hasOlderRows = false;
        assertBeforeDeadline(deadlineMs);
        await rateLimits.deleteMany({ _id: { $gte: `${id}|`, $lt: windowPrefix(id, state.window - 1) } });
      }
      return ADMITTED;
    }
  }

  // The tail of each key's claims: a key sends one claim at a time (settles, never rejects).
  const turns = new Map<string, Promise<unknown>>();
  function inTurn<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = turns.get(id);
    const result = before === undefined ? work() : before.then(work);
    const after = result.then(ignore, ignore);
    turns.set(id, after);
    void after.then(() => {
      if (turns.get(id) === after) turns.delete(id);
    });
    return result;
  }

  return {
    hit(key, rule, now, deadlineMs = Number.POSITIVE_INFINITY) {
      const nowMs = now.getTime();
      const id = `${key}|${rule.window}s`;
      const state = stateOf(id, rule, nowMs);
      const decision = decideAdmission(state, rule, nowMs);
      if (!decision.allowed) return Promise.resolve(decision);
      const slot = takeSlot(state, rule, nowMs);
      return inTurn(id, () => claimSlot(state, id, rule, nowMs, slot, deadlineMs));
    },
  };
}

const ADMITTED: RateLimitDecision = { allowed: true };
const ignore = () => {};

/** The same windows in process memory (one instance only; `rateLimit.storage: "memory"`). */
export function createMemoryRateLimiter(): RateLimiter {
  const stateOf = createWindowStates(false);
  return {
    async hit(key, rule, now) {
      const nowMs = now.getTime();
      const state = stateOf(`${key}|${rule.window}s`, rule, nowMs);
      const decision = decideAdmission(state, rule, nowMs);
      if (decision.allowed) takeSlot(state, rule, nowMs);
      return decision;
    },
  };
}

/** `auth.cleanup()` (features/cleanup.ts): admission rows expired at `now`, of keys that never came back. */
export async function deleteExpiredRateLimits(collections: Collections, now: Date): Promise<number> {
  const { deletedCount } = await collections.rateLimits.deleteMany({ expiresAt: { $lte: now } });
  return deletedCount;
}
