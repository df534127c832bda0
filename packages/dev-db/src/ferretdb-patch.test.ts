import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FERRETDB_GO_DIR, ferretDbPatchKey, hashFerretDbChanges } from "./ferretdb-patch.ts";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("the built FerretDB's cache key", () => {
  it("changes with any added file or patch, and not with the Go tests (not part of the binary)", async () => {
    dir = await mkdtemp(join(tmpdir(), "tessera-go-dir-"));
    await cp(FERRETDB_GO_DIR, dir, { recursive: true });
    const key = hashFerretDbChanges(dir);
    expect(key).toBe(ferretDbPatchKey());
    expect(key).toMatch(/^[0-9a-f]{12}$/);
    await writeFile(join(dir, "tests", "internal", "extra_test.go"), "package internal\n");
    expect(hashFerretDbChanges(dir)).toBe(key);
    const patch = join(dir, "patches", "0001-id-index-expression.patch");
    await writeFile(patch, "A described change.\n", { flag: "a" });
    const changed = hashFerretDbChanges(dir);
    expect(changed).not.toBe(key);
    await writeFile(join(dir, "added", "internal", "types", "tessera_more.go"), "package types\n");
    expect(hashFerretDbChanges(dir)).not.toBe(changed);
  });
});
