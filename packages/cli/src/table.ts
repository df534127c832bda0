import type { Io } from "./io.ts";
import { paint } from "./io.ts";

/**
 * Rows as aligned columns with a header on a terminal, or tab-separated lines (no header) for
 * pipes, so `cut -f1` works. No rows: no lines, not even the header.
 */
export function formatTable(
  io: Io,
  columns: readonly string[],
  rows: readonly (readonly string[])[],
): string[] {
  // An empty list prints nothing here: the command says "No …" on stderr (kit.ts noteEmpty).
  if (!io.stdoutIsTTY || rows.length === 0) return rows.map((row) => row.join("\t"));
  const widths = columns.map((column, index) =>
    Math.min(48, Math.max(column.length, ...rows.map((row) => (row[index] ?? "").length))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => {
        const width = widths[index]!;
        const text = cell.length > width ? `${cell.slice(0, width - 1)}…` : cell;
        return text.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  return [paint(io, "bold", line(columns)), ...rows.map(line)];
}

export function formatDate(value: Date | string | null | undefined): string {
  if (value === null || value === undefined) return "-";
  const date = typeof value === "string" ? new Date(value) : value;
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
