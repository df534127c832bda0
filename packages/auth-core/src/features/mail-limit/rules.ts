import { createHmac } from "node:crypto";
import type { MailKind } from "../../mail/mailer.ts";

/**
 * Pure decisions of the per-recipient mail limit (docs/security.md, "Mail flooding"): at most `max`
 * mails of one kind to one address per fixed window of `window` seconds. Each mail claims one slot
 * whose `_id` names the kind, the address (as a keyed hash: the table never holds an address in
 * clear) and the window; a unique `_id` insert is atomic on every backend, where a counter update is
 * not on FerretDB v1 (lost updates under concurrency, measured).
 */

export interface MailLimitRule {
  window: number;
  max: number;
}

export interface MailLimitConfig extends MailLimitRule {
  enabled: boolean;
  kinds: Partial<Record<MailKind, MailLimitRule | false>>;
}

/**
 * A sign-in code is asked for by someone who holds the password, already at most
 * `twoFactor.otpSendsPerChallenge` times per sign-in (5 by default): its allowance must let a user
 * retry a sign-in or two, or a code they wait for would silently never come.
 */
const DEFAULT_KIND_RULES: Partial<Record<MailKind, MailLimitRule>> = {
  "two-factor-otp": { window: 900, max: 10 },
};

/** The rule for a kind: its own (`kinds`), else the built-in one, else `window`/`max`; null when off. */
export function mailLimitRule(config: MailLimitConfig, kind: MailKind): MailLimitRule | null {
  if (!config.enabled) return null;
  const own = config.kinds[kind] ?? DEFAULT_KIND_RULES[kind];
  if (own === false) return null;
  return own ?? { window: config.window, max: config.max };
}

/** The address as it appears in slot ids and log lines: an HMAC under the auth secret, 32 hex chars. */
export function recipientKey(secret: string, email: string): string {
  return createHmac("sha256", secret).update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
}

/** The index of the fixed window `now` falls in. */
export function windowIndex(now: Date, windowSeconds: number): number {
  return Math.floor(now.getTime() / (windowSeconds * 1000));
}

/** When a slot of that window stops counting (its end): cleanup may remove it from then on. */
export function windowEnd(index: number, windowSeconds: number): Date {
  return new Date((index + 1) * windowSeconds * 1000);
}

/** The ids of the window's slots, in the order they are claimed (1..max). */
export function slotIds(kind: MailKind, recipient: string, index: number, max: number): string[] {
  return Array.from({ length: max }, (_, slot) => `${kind}|${recipient}|${index}|${slot + 1}`);
}
