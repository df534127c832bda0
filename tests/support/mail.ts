import { TestBrowser } from "./browser.ts";
import type { TestAuth } from "./test-auth.ts";

/** The first link of the latest mail to `email` whose path contains `path`. */
export function mailedLink(t: TestAuth, email: string, path: string): string {
  const link = (t.outbox.latestTo(email)?.text ?? "")
    .match(/https?:\/\/\S+/g)
    ?.find((url) => url.includes(path));
  if (!link) throw new Error(`no ${path} link mailed to ${email}`);
  return link;
}

/** Requests a password reset for `email` and returns the token of the mailed link. */
export async function requestResetToken(t: TestAuth, email: string, redirectTo?: string): Promise<string> {
  const res = await new TestBrowser(t.auth).post("/request-password-reset", { email, redirectTo });
  if (res.status !== 200) throw new Error(`request-password-reset answered ${res.status}`);
  return new URL(mailedLink(t, email, "/reset-password/")).pathname.split("/").pop()!;
}
