import { usageError } from "./errors.ts";

/** One data row of a CSV file: its line number in the file (for messages) and its fields by column. */
export interface CsvRow {
  line: number;
  fields: Record<string, string>;
}

/**
 * Splits CSV text into records (RFC 4180: quoted fields may hold commas, quotes doubled as `""` and
 * line breaks; CRLF or LF; a UTF-8 byte-order mark is dropped). Each record carries the line it
 * starts on. A quote left open is a usage error naming its line.
 */
function readRecords(text: string): { line: number; cells: string[] }[] {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let line = 1;
  let start = 1;
  let quoted = false;
  let quoteLine = 0;
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
    } else if (char === '"' && cell === "") {
      quoted = true;
      quoteLine = line;
    } else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[index + 1] === "\n") index++;
      cells.push(cell);
      records.push({ line: start, cells });
      cells = [];
      cell = "";
      line++;
      start = line;
    } else cell += char;
  }
  if (quoted) throw usageError(`--csv: line ${quoteLine}: a quoted field is never closed`);
  if (cell !== "" || cells.length > 0) {
    cells.push(cell);
    records.push({ line: start, cells });
  }
  // Blank lines carry no row.
  return records.filter((record) => record.cells.some((value) => value.trim() !== ""));
}

/**
 * The rows of a CSV file with a header line naming its columns (case-insensitive): `required` must
 * be there, every column must be one of `required` or `optional`, and no row has more fields than
 * the header (missing trailing fields are empty). Values are trimmed. Anything else is a usage error (exit 2) naming the line.
 */
export function parseCsv(
  text: string,
  columns: { required: readonly string[]; optional: readonly string[] },
): CsvRow[] {
  const records = readRecords(text);
  const header = records.shift();
  if (!header) throw usageError("--csv: the file is empty (it needs a header line, e.g. email,role,team)");
  const names = header.cells.map((name) => name.trim().toLowerCase());
  const known = [...columns.required, ...columns.optional];
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw usageError(
      `--csv: unknown column ${unknown.map((name) => JSON.stringify(name)).join(", ")} (columns: ${known.join(", ")})`,
    );
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0) throw usageError(`--csv: the column ${repeated[0]} appears twice`);
  const missing = columns.required.filter((name) => !names.includes(name));
  if (missing.length > 0)
    throw usageError(
      `--csv: the header line has no ${missing.join(", ")} column (found: ${names.join(",")})`,
    );
  if (records.length === 0) throw usageError("--csv: the file has a header line but no rows");
  return records.map((record) => {
    if (record.cells.length > names.length)
      throw usageError(
        `--csv: line ${record.line} has ${record.cells.length} fields, the header has ${names.length}`,
      );
    const fields: Record<string, string> = {};
    names.forEach((name, index) => {
      fields[name] = (record.cells[index] ?? "").trim();
    });
    return { line: record.line, fields };
  });
}
