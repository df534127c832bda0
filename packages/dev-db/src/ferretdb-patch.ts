import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyFilePatch, parseUnifiedPatch } from "./unified-patch.ts";

/**
 * Our changes to FerretDB v1.24.2, made to the module's source before it is built (docs/scale.md
 * "The embedded database"). They are Go files in packages/dev-db/go/: `added/` files are copied
 * into the module at the same path, `patches/NNNN-*.patch` are unified diffs applied in order (each
 * says why at its top), and `tests/` holds Go tests that dev-db.test.ts runs in a patched copy,
 * never built into the binary. dev-db.test.ts also checks them with `gofmt -l` and `go vet`.
 *
 * 1–3 and 7 only narrow which rows SQLite reads, and 4 only how it counts them: FerretDB's handler
 * still applies the whole MongoDB filter to what comes back, so every query answers exactly what it
 * answered before. 5 and 6 make each row cheaper to read and answer the same documents.
 *
 * 1. The `_id` index is used (0001-id-index-expression): FerretDB filtered with an expression
 *    SQLite does not match to the index it creates, so a lookup by `_id` read every row.
 * 2. The `_id` condition is pushed down whatever else the filter holds, and `$eq` / `$in` of strings
 *    and ObjectIds are pushed down too (0002-read-conditions; tessera_id_condition.go). A prefix
 *    range `{_id: {$gte: p, $lt: p⁺}}` (p⁺: p with its last character one higher) is pushed down as
 *    an index range: every string starting with p, and nothing else, lies in it (tessera_prefix.go).
 * 3. A find whose whole filter is such a prefix range and whose sort is `{_id: ±1}` reads an index in
 *    that order and stops after skip + limit rows (0003-id-order-reads; tessera_pushdown.go).
 *    Stopping early is exact only if SQLite's order and selection are MongoDB's, so this read uses a
 *    second index, on the decoded string (`_ferretdb_sjson->>'_id'`, SQLite's BINARY collation: byte
 *    order of UTF-8, MongoDB's string order), created the first time a collection is read this way,
 *    and keeps only string ids (an ObjectId's hex text could fall in the range). The stored JSON
 *    text the `_id` index holds is not in that order: escapes and the closing quote put rows out of
 *    place, so a limited read on it returned wrong rows (an earlier build did).
 * 4. `count` without a filter, skip or limit (the driver's `estimatedDocumentCount`) reads one row,
 *    kept by two triggers that the first such count sets up (0004-counts-from-row-counts).
 * 5. Stored documents are decoded in one pass (0005-one-pass-decoder; tessera_decode.go), about 7×
 *    faster than upstream's decoder, which decodes whatever the new one leaves to it.
 * 6. Resource tracking is off (0006-resource-tracking-off; tessera_tracking.go): a leak check for
 *    FerretDB's own tests that cost ~15% of the database's CPU time on reads of a hundred documents.
 * 7. Beside `_id` (or without it), equality on other top-level fields — a string or ObjectId,
 *    `$eq`, or `$in` of them — and prefix ranges as in 2 are pushed down on
 *    `_ferretdb_sjson->'field'`, the expression FerretDB builds its indexes on, so SQLite reads an
 *    index the field leads (members by organization, sessions by user…) instead of the handler
 *    decoding every document (tessera_id_condition.go, through 0002). MongoDB's equality also
 *    matches an array holding the value: rows whose field is an array are selected too, and the
 *    handler decides. A value whose JSON has an escape is left to the handler.
 * 8. One writer per collection (0007-one-writer-per-collection; tessera_write_lock.go): update,
 *    findAndModify and delete hold their collection's lock from the read of the matching documents
 *    to the write of their change, so concurrent changes of one document are atomic as on MongoDB
 *    (upstream lost most of 200 concurrent `$inc` of one field).
 */

/**
 * packages/dev-db/go, from src/ and from a packed dist/ alike (package.json "files" carries it).
 * @internal Exported for the dev-db tests.
 */
export const FERRETDB_GO_DIR = fileURLToPath(new URL("../go/", import.meta.url));

/**
 * The files under `dir`, as sorted paths relative to it with forward slashes.
 * @internal Exported for dev-db.test.ts.
 */
export function listFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length)
        .replace(/^[\\/]+/, ""),
    )
    .map((path) => path.split(/[\\/]/).join("/"))
    .sort();
}

let patchKey: string | undefined;

/**
 * What the built binary is cached under, beside the FerretDB version (ferretdb.ts
 * ferretDbBinaryPath): any change to go/added or go/patches builds a new binary, and an unchanged
 * tree reuses the one built before — no level to bump by hand.
 */
export function ferretDbPatchKey(): string {
  patchKey ??= hashFerretDbChanges(FERRETDB_GO_DIR);
  return patchKey;
}

/**
 * A hash of every added file and patch under `goDir`, names and contents; go/tests is left out, as
 * it is not part of the binary.
 * @internal Exported for ferretdb-patch.test.ts.
 */
export function hashFerretDbChanges(goDir: string): string {
  const hash = createHash("sha256");
  for (const part of ["added", "patches"]) {
    const dir = join(goDir, part);
    for (const path of listFilesUnder(dir)) {
      hash
        .update(`${part}/${path}\0`)
        .update(readFileSync(join(dir, path)))
        .update("\0");
    }
  }
  return hash.digest("hex").slice(0, 12);
}

/**
 * The module's files our changes touch or add (paths inside the module), tests included.
 * @internal Exported for dev-db.test.ts.
 */
export async function listChangedFiles(): Promise<string[]> {
  const patches = join(FERRETDB_GO_DIR, "patches");
  const patched: string[] = [];
  for (const name of listPatches(patches)) {
    const text = await readFile(join(patches, name), "utf8");
    patched.push(...parseUnifiedPatch(text, name).map((filePatch) => filePatch.file));
  }
  const added = ["added", "tests"].flatMap((part) => listFilesUnder(join(FERRETDB_GO_DIR, part)));
  return [...new Set([...patched, ...added])].sort();
}

function listPatches(dir: string): string[] {
  return listFilesUnder(dir).filter((path) => path.endsWith(".patch"));
}

/** Applies go/patches in order and copies go/added into the module's writable source in `sourceDir`. */
export async function applyFerretDbChanges(sourceDir: string): Promise<void> {
  const patches = join(FERRETDB_GO_DIR, "patches");
  for (const name of listPatches(patches)) {
    for (const filePatch of parseUnifiedPatch(await readFile(join(patches, name), "utf8"), name)) {
      const path = join(sourceDir, ...filePatch.file.split("/"));
      await writeFile(
        path,
        applyFilePatch(await readFile(path, "utf8"), filePatch, `cannot patch FerretDB: ${name}`),
      );
    }
  }
  await copyGoFiles(join(FERRETDB_GO_DIR, "added"), sourceDir);
}

/**
 * Copies the Go tests of go/tests into a patched source (dev-db.test.ts runs them there).
 * @internal Exported for dev-db.test.ts.
 */
export async function addFerretDbTests(sourceDir: string): Promise<string[]> {
  return copyGoFiles(join(FERRETDB_GO_DIR, "tests"), sourceDir);
}

async function copyGoFiles(from: string, sourceDir: string): Promise<string[]> {
  const files = listFilesUnder(from);
  for (const path of files) {
    await writeFile(join(sourceDir, ...path.split("/")), await readFile(join(from, path)));
  }
  return files;
}
