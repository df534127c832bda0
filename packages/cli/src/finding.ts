/** One check of `tessera doctor` (invariants.ts): what it found and, with --fix, repaired. */
export interface Finding {
  /** Stable id, e.g. "sessions-of-missing-users". */
  check: string;
  /** What it looks for: the problem ("sessions of users that no longer exist"). */
  description: string;
  /** How a pass reads, when "no <description>" does not (default: that). */
  passed?: string;
  /** Rows (or groups) found. */
  count: number;
  /** Whether --fix repairs it (deletes or clears the rows); the others need a person's decision. */
  fixable: boolean;
  /** Rows repaired by this run (0 without fix). */
  fixed: number;
  /** A few ids or values, for a look. */
  examples: string[];
}
