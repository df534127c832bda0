import { createHmac } from "node:crypto";
import type { ObjectId } from "../../db/ids.ts";
import { rateLimitAddress } from "../../http/client-ip.ts";
import type { MailKind } from "../../mail/mailer.ts";

/**
 * Pure decisions of the mail limit (docs/security.md, "Mail flooding"). Two allowances per kind and
 * fixed window of `window` seconds:
 * - per sender and recipient, `max` mails: what one client address, account or organization may
 *   send to one mailbox — so no sender can use up another sender's allowance;
 * - per recipient, `recipientMax` mails from all senders together: so one mailbox cannot be flooded
 *   by many senders either.
 * A mail only the recipient's own account can cause has no other sender: it counts per recipient,
 * at most `max`. Each mail claims one slot per allowance, whose `_id` names the kind, the address
 * (a keyed hash: the table never holds an address in clear), the window and, for the first, the
 * sender (keyed too); a unique `_id` insert is atomic on every backend, where a counter update was
 * not on FerretDB v1 as released (lost updates under concurrency, measured; dev-db patch 0007).
 */

export interface MailLimitRule {
  window: number;
  max: number;
  recipientMax: number;
}

export interface MailLimitConfig extends MailLimitRule {
  enabled: boolean;
  kinds: Partial<Record<MailKind, Partial<MailLimitRule> | false>>;
}

/**
 * Who caused a mail, as far as the limit is concerned: the client address of an anonymous request
 * (IPv6 by its /64, as the rate limit counts it), the signed-in account, or the organization that
 * invites. Absent for mails only the recipient's own account can cause.
 */
export type MailSender =
  | { kind: "client"; address: string | null }
  | { kind: "user"; id: ObjectId }
  | { kind: "organization"; id: ObjectId };

/**
 * A sign-in code is asked for by someone who holds the password, already at most
 * `twoFactor.otpSendsPerChallenge` times per sign-in (5 by default): its allowance must let a user
 * retry a sign-in or two, or a code they wait for would silently never come.
 */
const DEFAULT_KIND_RULES: Partial<Record<MailKind, Partial<MailLimitRule>>> = {
  "two-factor-otp": { window: 900, max: 10, recipientMax: 10 },
};

/** The rule for a kind: its own (`kinds`), over the built-in one, over the defaults; null when off. */
export function mailLimitRule(config: MailLimitConfig, kind: MailKind): MailLimitRule | null {
  if (!config.enabled) return null;
  const own = config.kinds[kind];
  if (own === false) return null;
  const rule = { window: config.window, max: config.max, recipientMax: config.recipientMax };
  return { ...rule, ...DEFAULT_KIND_RULES[kind], ...own };
}

/**
 * The mailbox an address delivers to, as the limit counts it: trimmed, lower-cased, and without a
 * `+tag` in the local part — `box+1@` and `box+2@` reach one mailbox at most providers, and must not
 * each get an allowance. Only the count uses it; mail goes to the address as given.
 * @internal Exported for its unit test (rules.test.ts).
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  const plus = address.indexOf("+");
  return plus > 0 && plus < at ? address.slice(0, plus) + address.slice(at) : address;
}

/** The mailbox as it appears in slot ids and log lines: an HMAC under the auth secret, 32 hex chars. */
export function recipientKey(secret: string, email: string): string {
  return keyedHash(secret, mailboxOf(email), 32);
}

/** The sender as it appears in slot ids: keyed like the address (a client address is personal data). */
export function senderKey(secret: string, sender: MailSender): string {
  const name =
    sender.kind === "client"
      ? `client:${rateLimitAddress(sender.address)}`
      : `${sender.kind}:${sender.id.toHexString()}`;
  return keyedHash(secret, name, 24);
}

function keyedHash(secret: string, value: string, length: number): string {
  return createHmac("sha256", secret).update(value).digest("hex").slice(0, length);
}

/** The index of the fixed window `now` falls in. */
export function windowIndex(now: Date, windowSeconds: number): number {
  return Math.floor(now.getTime() / (windowSeconds * 1000));
}

/** When a slot of that window stops counting (its end): cleanup may remove it from then on. */
export function windowEnd(index: number, windowSeconds: number): Date {
  return new Date((index + 1) * windowSeconds * 1000);
}

/**
 * The ids of the window's slots, in the order they are claimed (1..max): of the recipient's
 * allowance, or with `sender` of that sender's allowance for the recipient.
 */
export function slotIds(
  kind: MailKind,
  recipient: string,
  index: number,
  max: number,
  sender?: string,
): string[] {
  const prefix =
    sender === undefined ? `${kind}|${recipient}|${index}` : `${kind}|${recipient}|${index}|${sender}`;
  return Array.from({ length: max }, (_, slot) => `${prefix}|${slot + 1}`);
}
