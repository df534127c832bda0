import type { AuthContext } from "../../context.ts";
import type { MailKind } from "../../mail/mailer.ts";
import {
  type MailSender,
  mailLimitRule,
  recipientKey,
  senderKey,
  slotIds,
  windowEnd,
  windowIndex,
} from "./rules.ts";
import { claimFirstFreeSlot, releaseSlot } from "./store.ts";

export type { MailSender } from "./rules.ts";
/** For `auth.cleanup()` (features/cleanup.ts). */
export { deleteExpiredMailLimits } from "./store.ts";

/**
 * Counts one mail of `kind` to `email` from `sender` against the limit (`mailLimit` options, rules.ts):
 * true when it may be sent. The sender's own allowance for the mailbox is claimed first, then the
 * mailbox's allowance from everyone; a sender past its own allowance never touches the mailbox's,
 * and a slot of the sender's is given back when the mailbox's is used up. Without a sender (a mail
 * only the recipient's own account can cause) only the mailbox's allowance counts, up to `max`.
 * Refused, a warning names the kind and keyed hashes, never the address. Every mail the core sends
 * passes here (features/mail-dispatch.ts; docs/security.md, "Mail flooding").
 */
export async function admitMail(
  auth: AuthContext,
  kind: MailKind,
  email: string,
  sender?: MailSender,
): Promise<boolean> {
  const rule = mailLimitRule(auth.options.mailLimit, kind);
  if (!rule) return true;
  const { secret } = auth.options;
  const recipient = recipientKey(secret, email);
  const index = windowIndex(auth.now(), rule.window);
  const expiresAt = windowEnd(index, rule.window);
  if (!sender) {
    if (await claimFirstFreeSlot(auth.collections, slotIds(kind, recipient, index, rule.max), expiresAt))
      return true;
    auth.options.logger.warn("mail not sent: too many to this address", { kind, recipient });
    return false;
  }
  const from = senderKey(secret, sender);
  const own = await claimFirstFreeSlot(
    auth.collections,
    slotIds(kind, recipient, index, rule.max, from),
    expiresAt,
  );
  if (!own) {
    auth.options.logger.warn("mail not sent: too many from this sender to this address", {
      kind,
      recipient,
      sender: from,
    });
    return false;
  }
  const ids = slotIds(kind, recipient, index, rule.recipientMax);
  if (await claimFirstFreeSlot(auth.collections, ids, expiresAt)) return true;
  await releaseSlot(auth.collections, own);
  auth.options.logger.warn("mail not sent: too many to this address", { kind, recipient });
  return false;
}
