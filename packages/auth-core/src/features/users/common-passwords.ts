import { comparablePassword } from "./password-rules.ts";

/**
 * The offline list of commonly used and breached passwords that new passwords are checked against
 * (NIST SP 800-63B §5.1.1.2; docs/security.md "Common and breached passwords"): the
 * `passwords-common` dictionary of @zxcvbn-ts/language-common (MIT), 49,233 entries ranked by
 * frequency in public breach corpora, shipped inside the package so the check works offline.
 *
 * Loaded on the first password that needs it (sign-in never does), once per process, into a Set
 * of lower-cased entries (≈4 MiB of heap). The one module-level cache of the core: the list is
 * immutable data of the process, like the scrypt slots of crypto/password.ts, so instances share it.
 */
let loading: Promise<ReadonlySet<string>> | null = null;

function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"].map((entry) => entry.toLowerCase())),
    (error: unknown) => {
      loading = null; // a failed load is retried by the next password, not cached
      throw error;
    },
  );
  return loading;
}

/**
 * Case-insensitive, after NFKC as for hashing and with whitespace padding ignored
 * (password-rules.ts comparablePassword): " password1" or "password1" after a tab or an NBSP is
 * the same common password.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  const list = await loadCommonPasswords();
  return list.has(comparablePassword(password));
}
