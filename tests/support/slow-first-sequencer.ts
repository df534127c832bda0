import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that start servers, browsers, packs and installs (tens of seconds each), longest kinds
 * first. A clean clone (CI) has no timings of an earlier run, and vitest then starts the largest
 * files first: a short file with a long run (reliability.test.ts) could start last and keep one
 * worker busy while the other has nothing left. Longest first leaves the short files to fill the end.
 * The reliability files come after the package and e2e files, not beside them: their time bounds
 * (503 within 2 s while the database is down) are the issue's, and an `npm install` plus a Vite
 * build on the other core pushed one answer to 2.4 s.
 */
const SLOW_FIRST: readonly RegExp[] = [
  /^tests\/(package|e2e)\//,
  /^tests\/cli\/.*\.e2e\.test\.ts$/,
  /^tests\/reliability\//,
  /^tests\/browser\//,
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification) => {
      const path = relative(root, file.moduleId).replaceAll("\\", "/");
      const index = SLOW_FIRST.findIndex((pattern) => pattern.test(path));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    // A stable sort: within a rank, the order vitest chose (its timings, else file size).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
