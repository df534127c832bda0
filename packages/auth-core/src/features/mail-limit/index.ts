import type { AuthContext } from "../../context.ts";
import type { MailKind } from "../../mail/mailer.ts";
import { mailLimitRule, recipientKey, slotIds, windowEnd, windowIndex } from "./rules.ts";
import { claimFirstFreeSlot } from "./store.ts";

/**
 * Counts one mail of `kind` to `email` against the limit (`mailLimit` options): true when it may
 * be sent, false when the address has had its allowance of that kind in the current window — then
 * a warning names the kind and a keyed hash of the address, never the address itself. Every mail
 * the core sends passes here (features/mail-dispatch.ts); an endpoint whose mail is refused answers
 * exactly as if it were sent (docs/security.md, "Mail flooding").
 */
export async function admitMail(auth: AuthContext, kind: MailKind, email: string): Promise<boolean> {
  const rule = mailLimitRule(auth.options.mailLimit, kind);
  if (!rule) return true;
  const recipient = recipientKey(auth.options.secret, email);
  const index = windowIndex(auth.now(), rule.window);
  const ids = slotIds(kind, recipient, index, rule.max);
  if (await claimFirstFreeSlot(auth.collections, ids, windowEnd(index, rule.window))) return true;
  auth.options.logger.warn("mail not sent: too many to this address", { kind, recipient });
  return false;
}
