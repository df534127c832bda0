import type { MailUser } from "../config/hooks.ts";
import type { AuthContext } from "../context.ts";
import type { UserDoc } from "../db/documents.ts";
import type { MailKind, MailMessage } from "../mail/mailer.ts";
import { renderMail } from "../mail/templates/index.ts";
import type { Language } from "../mail/templates/language.ts";
import type { MailDataByKind } from "../mail/templates/types.ts";
import { admitMail, type MailSender } from "./mail-limit/index.ts";
import type { QueuedMailContext } from "./mail-outbox/index.ts";

export { admitMail, type MailSender };

export function toMailUser(user: UserDoc): MailUser {
  return { id: user._id.toHexString(), email: user.email, name: user.name };
}

/**
 * How a caller waits for its mail. Awaited by default: a delivery failure fails the request. With
 * `background`, only the mail limit is awaited; delivery is started before this returns (the dev
 * outbox and the mail hooks have the mail by then) and a failure, of the limit's write or of the
 * delivery, is logged with that message — for answers that must not depend on the mailer
 * (enumeration, a user already stored).
 */
export interface MailDelivery {
  background?: string;
  /**
   * Who caused the mail (features/mail-limit): the client address of an anonymous request, the
   * signed-in account, the inviting organization. Absent only for mails the recipient's own account
   * causes (its deletion link, its notices, its sign-in codes).
   */
  sender?: MailSender;
  /**
   * The caller counted this mail already (admitMail), before a write only an admitted mail may
   * make (features/passwordless replaces the code a mailbox holds only when a new one will come).
   */
  admitted?: true;
  /**
   * A mail whose link lives long enough to wait for the mail server (verification, invitation,
   * password reset, change-email, deletion confirmation): queued in the durable outbox
   * (features/mail-outbox) and delivered from there, retried until `expiresAt`. The caller never
   * waits for delivery, and no failure after its own write reaches its answer: a failure to count
   * or to queue the mail is logged (docs/architecture.md "Mail"). Mail hooks take over delivery
   * and are called as without it.
   */
  queue?: QueuedMailContext;
}

/**
 * Sends one mail: through the app's mail hook when it gave one, else rendered from the template in
 * the user's language and handed to the mailer. The single path every core mail takes, so the
 * mail limit (features/mail-limit) holds for every kind: past it nothing is sent, and the caller goes
 * on as if it had been (docs/security.md, "Mail flooding"). True when the mail (or the hook) was
 * dispatched, false when the limit refused it — for the one answer that says so (create-invitation's
 * `emailSent`); every other caller ignores it, so the answer does not tell who has an account.
 */
export async function dispatchMail<K extends MailKind>(
  auth: AuthContext,
  kind: K,
  recipient: { email: string; language?: string | undefined },
  data: Omit<MailDataByKind[K], "appName">,
  hook: (() => Promise<void> | void) | undefined,
  delivery: MailDelivery = {},
): Promise<boolean> {
  if (delivery.queue && !hook) return queueMail(auth, kind, recipient, data, delivery, delivery.queue);
  // The app's hook sends the mail: the link is stored before it is handed over.
  await delivery.queue?.linkStored?.();
  const failure = delivery.background;
  const admit = () =>
    delivery.admitted ? Promise.resolve(true) : admitMail(auth, kind, recipient.email, delivery.sender);
  if (failure === undefined) {
    if (!(await admit())) return false;
    await deliverMail(auth, kind, recipient, data, hook);
    return true;
  }
  // In the background a failure of the limit's own write is a mail failure too: logged, never the
  // answer's (a user already stored must not be answered 500 because their mail was not counted).
  const admitted = await admit().catch((error: unknown) => {
    auth.options.logger.error(failure, error);
    return false;
  });
  if (!admitted) return false;
  deliverMail(auth, kind, recipient, data, hook).catch((error: unknown) =>
    auth.options.logger.error(failure, error),
  );
  return true;
}

/**
 * False when the limit refused the mail or it could not be stored (logged; the caller's answer
 * stands). The link's token (`context.linkStored`) is stored in every case, after the mail's row
 * when there is one; its failure is the caller's.
 */
async function queueMail<K extends MailKind>(
  auth: AuthContext,
  kind: K,
  recipient: { email: string; language?: string | undefined },
  data: Omit<MailDataByKind[K], "appName">,
  delivery: MailDelivery,
  context: QueuedMailContext,
): Promise<boolean> {
  const { linkStored } = context;
  let linkTried = false;
  const storeLink = async () => {
    linkTried = true;
    await linkStored?.();
  };
  try {
    if (!delivery.admitted && !(await admitMail(auth, kind, recipient.email, delivery.sender))) {
      await storeLink();
      return false;
    }
    // In the background (an answer that must not tell who has an account) the row is stored beside
    // the answer, not before it: the answer costs the same commands whether a mail is queued or not —
    // unless the caller stores a stand-in for every mail it does not send (`beside: false`,
    // queueNoMail), so that the row can go before the link's token.
    const beside = context.beside ?? delivery.background !== undefined;
    const message = renderMessage(auth, kind, recipient, data);
    await auth.mailOutbox.queue(message, { ...context, beside, linkStored: linkStored && storeLink });
    return true;
  } catch (error) {
    if (linkTried) throw error;
    auth.options.logger.error(`${kind} mail could not be queued`, error);
    await storeLink();
    return false;
  }
}

/**
 * What queuing a mail costs the request, paid for a mail that is not sent: the outbox's inert
 * stand-in row (MailOutbox.storeUnsentMail), or nothing when the app's mail `hook` would have taken
 * the mail (it queues no row either). For answers that must cost every address the same commands
 * and still store a mail before its token (password/service.ts requestPasswordReset).
 */
export async function queueNoMail(auth: AuthContext, kind: MailKind, hook: unknown): Promise<void> {
  if (hook) return;
  await auth.mailOutbox.storeUnsentMail(kind);
}

function renderMessage<K extends MailKind>(
  auth: AuthContext,
  kind: K,
  recipient: { email: string; language?: string | undefined },
  data: Omit<MailDataByKind[K], "appName">,
): MailMessage {
  const language = (recipient.language ?? auth.options.language) as Language;
  const rendered = renderMail(kind, language, {
    ...data,
    appName: auth.options.appName,
  } as MailDataByKind[K]);
  return { to: recipient.email, kind, ...rendered };
}

async function deliverMail<K extends MailKind>(
  auth: AuthContext,
  kind: K,
  recipient: { email: string; language?: string | undefined },
  data: Omit<MailDataByKind[K], "appName">,
  hook: (() => Promise<void> | void) | undefined,
): Promise<void> {
  if (hook) {
    await hook();
    return;
  }
  await auth.mailer.send(renderMessage(auth, kind, recipient, data));
}

/** Builds a link under the API base URL with the given query. */
export function apiLink(auth: AuthContext, path: string, query: Record<string, string | undefined>): string {
  const url = new URL(`${auth.apiURL}${path}`);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}
