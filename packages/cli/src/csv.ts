import { CsvError, parse } from "csv-parse/sync";
import { type CliError, usageError } from "./errors.ts";

/** One data row of a CSV file: its line number in the file (for messages) and its fields by column. */
export interface CsvRow {
  line: number;
  fields: Record<string, string>;
}

/**
 * The field separator, from the header line: `;` when it has more semicolons than commas (Excel
 * saves "CSV" with `;` wherever the decimal separator is a comma: ru, uk, es, de, pl, fr, tr), else
 * `,`. The header names no column with either in it, so it tells the two apart.
 */
function detectDelimiter(text: string): "," | ";" {
  const header = text.replace(/^\uFEFF/, "").split(/\r?\n|\r/, 1)[0] ?? "";
  const count = (char: string) => header.split(char).length - 1;
  return count(";") > count(",") ? ";" : ",";
}

/**
 * The line of the quote left open (csv-parse names the line it gave up on, the end of the file).
 * Every quote opens or closes a quoted field; a doubled one inside it closes and reopens it.
 */
function unclosedQuoteLine(text: string): number {
  let line = 1;
  let open = false;
  let openedOn = 1;
  for (const char of text) {
    if (char === "\n") line++;
    else if (char === '"') {
      open = !open;
      if (open) openedOn = line;
    }
  }
  return openedOn;
}

/** csv-parse's failures, as the line and what to fix. */
function explainCsvError(error: CsvError, text: string): CliError {
  const line = error.code === "CSV_QUOTE_NOT_CLOSED" ? unclosedQuoteLine(text) : error.lines;
  const reasons: Record<string, string> = {
    CSV_QUOTE_NOT_CLOSED: "a quoted field is never closed",
    CSV_INVALID_CLOSING_QUOTE:
      'a quoted field goes on after its closing quote (write a quote inside quotes as "")',
    CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE:
      'a quoted field goes on after its closing quote (write a quote inside quotes as "")',
  };
  return usageError(`--csv: line ${line}: ${reasons[error.code] ?? error.message}`);
}

/**
 * Records of CSV text (RFC 4180 through csv-parse: quoted fields may hold separators, doubled
 * quotes and line breaks; CRLF or LF; a UTF-8 byte-order mark is dropped), `,` or `;` separated,
 * each with the line it starts on. Lines with nothing in them carry no row.
 */
function readRecords(text: string): { line: number; cells: string[] }[] {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      delimiter: detectDelimiter(text),
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      trim: true,
      skip_empty_lines: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) throw explainCsvError(error, text);
    throw error;
  }
  return parsed
    .map(({ record, info }) => ({
      // info.lines is the line a record ends on; its quoted line breaks say how many lines it spans.
      line: info.lines - record.reduce((breaks, cell) => breaks + cell.split("\n").length - 1, 0),
      cells: record,
    }))
    .filter((record) => record.cells.some((value) => value.trim() !== ""));
}

/**
 * The rows of a CSV file with a header line naming its columns (case-insensitive): `required` must
 * be there, every column must be one of `required` or `optional`, and no row has more fields than
 * the header (missing trailing fields are empty). Values are trimmed. Anything else is a usage error
 * (exit 2) naming the line.
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
