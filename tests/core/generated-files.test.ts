import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED_HEADER } from "../../scripts/gen/client-files.ts";
import { generateFiles } from "../../scripts/gen/generate.ts";
import { ROOT } from "../../scripts/gen/sources.ts";

/**
 * The files `pnpm gen` derives from the contracts (the client's route table and method types, the
 * endpoint registry, docs/reference.md) are what the generator writes today: a contract or handler
 * changed without `pnpm gen` fails here, and so does a hand edit of a generated file.
 */
describe("files generated from the contracts", () => {
  it("are up to date (run `pnpm gen`)", async () => {
    const stale: string[] = [];
    for (const file of await generateFiles()) {
      let current: string | null = null;
      try {
        current = readFileSync(`${ROOT}${file.path}`, "utf8");
      } catch {}
      if (current !== file.text) stale.push(file.path);
    }
    expect(stale).toEqual([]);
  });

  it("each say on their first line that they are generated", async () => {
    for (const file of await generateFiles())
      expect(file.text.split("\n")[0], file.path).toContain(GENERATED_HEADER);
  });
});
