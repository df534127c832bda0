/**
 * Unified diffs (`diff -u`, `git diff`) applied exactly: every hunk must find its removed and context
 * lines at the line its header names (shifted by what earlier hunks added or removed), or the patch
 * fails with the file and line. No fuzz and no search: the source it patches is one pinned module
 * version, so a hunk that does not sit where it says is a mistake to report, not to work around.
 * Text before the first `--- ` line is the patch's description and is skipped.
 */

export interface FilePatch {
  /** Path inside the patched tree, without the `b/` prefix. */
  file: string;
  hunks: Hunk[];
}

interface Hunk {
  /** 1-based line of the original file where the hunk starts. */
  oldStart: number;
  /** The lines it expects (context and removed), and what replaces them (context and added). */
  oldLines: string[];
  newLines: string[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The files and hunks of a unified diff; throws on anything it does not understand. */
export function parseUnifiedPatch(text: string, name: string): FilePatch[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: FilePatch[] = [];
  let i = lines.findIndex((line) => line.startsWith("--- "));
  if (i === -1) throw new Error(`${name}: no file in the patch`);
  while (i < lines.length) {
    const from = lines[i]!;
    const to = lines[i + 1] ?? "";
    if (!from.startsWith("--- a/") || !to.startsWith("+++ b/")) {
      throw new Error(
        `${name}:${i + 1}: expected "--- a/<file>" and "+++ b/<file>" (new and deleted files are not patches here)`,
      );
    }
    const patch: FilePatch = { file: to.slice("+++ b/".length).split("\t")[0]!, hunks: [] };
    files.push(patch);
    i += 2;
    while (i < lines.length && lines[i]!.startsWith("@@")) {
      const header = HUNK_HEADER.exec(lines[i]!);
      if (!header) throw new Error(`${name}:${i + 1}: malformed hunk header`);
      const oldCount = header[2] === undefined ? 1 : Number(header[2]);
      const newCount = header[4] === undefined ? 1 : Number(header[4]);
      const hunk: Hunk = { oldStart: Number(header[1]), oldLines: [], newLines: [] };
      i++;
      while (hunk.oldLines.length < oldCount || hunk.newLines.length < newCount) {
        const line = lines[i];
        if (line === undefined) throw new Error(`${name}: the last hunk of ${patch.file} is cut short`);
        const body = line.slice(1);
        if (line.startsWith(" ") || line === "") {
          hunk.oldLines.push(body);
          hunk.newLines.push(body);
        } else if (line.startsWith("-")) hunk.oldLines.push(body);
        else if (line.startsWith("+")) hunk.newLines.push(body);
        else throw new Error(`${name}:${i + 1}: unexpected line in a hunk of ${patch.file}`);
        i++;
      }
      if (hunk.oldLines.length !== oldCount || hunk.newLines.length !== newCount) {
        throw new Error(`${name}: a hunk of ${patch.file} does not hold the lines its header counts`);
      }
      patch.hunks.push(hunk);
    }
    if (patch.hunks.length === 0) throw new Error(`${name}: no hunk for ${patch.file}`);
  }
  return files;
}

/** `text` with the hunks applied; throws naming the first hunk whose lines are not where it says. */
export function applyFilePatch(text: string, patch: FilePatch, name: string): string {
  const lines = text.split("\n");
  let shift = 0;
  let lastEnd = 0;
  for (const hunk of patch.hunks) {
    // A hunk of zero old lines names the line after which it inserts.
    const start = (hunk.oldLines.length === 0 ? hunk.oldStart : hunk.oldStart - 1) + shift;
    const found = lines.slice(start, start + hunk.oldLines.length);
    if (
      start < lastEnd ||
      found.length !== hunk.oldLines.length ||
      found.some((line, k) => line !== hunk.oldLines[k])
    ) {
      throw new Error(
        `${name} does not apply to ${patch.file} at line ${hunk.oldStart}: the source is not the one it was made for`,
      );
    }
    lines.splice(start, hunk.oldLines.length, ...hunk.newLines);
    shift += hunk.newLines.length - hunk.oldLines.length;
    lastEnd = start + hunk.newLines.length;
  }
  return lines.join("\n");
}
