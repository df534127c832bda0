import { normalizePassword } from "../../crypto/index.ts";

/**
 * Pure rules on new passwords (docs/security.md "Common and breached passwords", "Passwords that
 * name the account"); password-policy.ts applies them to every path that sets a password.
 */

/**
 * Characters that show as nothing: zero-width space, joiners, word joiner, BOM, Mongolian vowel
 * separator. None is Unicode White_Space, so `\s` alone would let them pad a password invisibly.
 */
const INVISIBLE = /[\u180e\u200b-\u200d\u2060\ufeff]/gu;
/** JavaScript's `\s` with the u flag: every Unicode White_Space (tab, NBSP, U+2000–U+200A, U+3000…). */
const WHITESPACE_RUN = /\s+/gu;

/**
 * The form in which a password is compared with lists and words — never the form hashed, which is
 * what was typed (crypto/password.ts): NFKC as for hashing, invisible characters dropped, every run
 * of Unicode whitespace one space, trimmed, lower-cased. So " password1", "password1\t" and
 * "\u00a0Password1" all compare as "password1".
 */
export function comparablePassword(password: string): string {
  return normalizePassword(password).replace(INVISIBLE, "").replace(WHITESPACE_RUN, " ").trim().toLowerCase();
}

/** What the password may not be: words the account or the app gives away (NIST SP 800-63B §5.1.1.2). */
export interface PasswordContext {
  email: string;
  appName: string;
}

/**
 * True when the password is, once compared (comparablePassword), the account's email address, its
 * local part (with or without a `+tag`) or the app's name — the context-specific words NIST SP
 * 800-63B §5.1.1.2 says to refuse. Spaces do not make a difference either ("Acme App" and
 * "acmeapp"). Equality only: a password that merely contains one of them is a longer secret.
 */
export function isContextSpecificPassword(password: string, context: PasswordContext): boolean {
  const typed = comparablePassword(password);
  const joined = typed.replaceAll(" ", "");
  return contextWords(context).some((word) => word === typed || word.replaceAll(" ", "") === joined);
}

function contextWords({ email, appName }: PasswordContext): string[] {
  const address = comparablePassword(email);
  const at = address.lastIndexOf("@");
  const local = at > 0 ? address.slice(0, at) : address;
  const plus = local.indexOf("+");
  const words = [address, local, plus > 0 ? local.slice(0, plus) : local, comparablePassword(appName)];
  return words.filter((word) => word.length > 0);
}
