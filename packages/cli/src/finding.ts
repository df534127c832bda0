/** One check of `tessera doctor` (invariants.ts): what it found and, with --fix, repaired. */
export interface Finding {
  /** Stable id, e.g. "sessions-of-missing-users". */
  check: string;
  description: string;
  /** Rows (or groups) found. */
  count: number;
  /** Whether --fix repairs it (deletes or clears the rows); the others need a person's decision. */
  fixable: boolean;
  /** Rows repaired by this run (0 without fix). */
  fixed: number;
  /** A few ids or values, for a look. */
  examples: string[];
}
