import type { Overrides, TestAuth } from "./test-auth.ts";

/** Magic links and email codes on (both are off by default). */
export const PASSWORDLESS: Overrides = { magicLink: { enabled: true }, emailOTP: { enabled: true } };

export interface MailedSignIn {
  /** The link as mailed, or null when the mail had none. */
  url: string | null;
  token: string | null;
  /** The 6-digit code as mailed, or null when the mail had none. */
  code: string | null;
  kind: string;
}

/** The link and code of the latest mail to `email` (features/passwordless); throws when there is none. */
export function mailedSignIn(t: TestAuth, email: string): MailedSignIn {
  const mail = t.outbox.latestTo(email);
  if (!mail) throw new Error(`no mail to ${email}`);
  const url = mail.text.match(/https?:\/\/\S*\/magic-link\/verify\?\S+/)?.[0] ?? null;
  const code = mail.text.match(/^\s*(\d{6})\s*$/m)?.[1] ?? null;
  return { url, token: url ? new URL(url).searchParams.get("token") : null, code, kind: mail.kind };
}

/** How many mails went to `email` so far. */
export function mailCount(t: TestAuth, email: string): number {
  return t.outbox.messages().filter((mail) => mail.to === email).length;
}

/** Every stored row of the feature (features/passwordless keeps them in `verifications`). */
export function passwordlessRows(t: TestAuth) {
  return t.db
    .collection("verifications")
    .find({ identifier: { $regex: "^passwordless" } })
    .toArray();
}
