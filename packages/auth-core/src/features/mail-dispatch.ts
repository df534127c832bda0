import type { MailUser } from "../config/hooks.ts";
import type { AuthContext } from "../context.ts";
import type { UserDoc } from "../db/documents.ts";
import type { MailKind } from "../mail/mailer.ts";
import { renderMail } from "../mail/templates/index.ts";
import type { Language } from "../mail/templates/language.ts";
import type { MailDataByKind } from "../mail/templates/types.ts";

export function toMailUser(user: UserDoc): MailUser {
  return { id: user._id.toHexString(), email: user.email, name: user.name };
}

/**
 * Sends one mail: through the app's mail hook when it gave one, else rendered from the template in
 * the user's language and handed to the mailer. The single path every core mail takes.
 */
export async function dispatchMail<K extends MailKind>(
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
  const language = (recipient.language ?? auth.options.language) as Language;
  const rendered = renderMail(kind, language, {
    ...data,
    appName: auth.options.appName,
  } as MailDataByKind[K]);
  await auth.mailer.send({ to: recipient.email, kind, ...rendered });
}

/** Builds a link under the API base URL with the given query. */
export function apiLink(auth: AuthContext, path: string, query: Record<string, string | undefined>): string {
  const url = new URL(`${auth.apiURL}${path}`);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}
