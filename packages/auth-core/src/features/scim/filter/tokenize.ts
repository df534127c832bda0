/**
 * The tokens of a SCIM filter (RFC 7644 §3.4.2.2; ABNF in RFC 7644 §3.10 and RFC 7643 §2.1): words
 * (attribute paths, operators, true/false/null), JSON string and number literals, ( ) [ ].
 * Pure; the parser (parse.ts) gives words their meaning.
 */

export type Token =
  | { kind: "word"; text: string; at: number }
  | { kind: "string"; value: string; at: number }
  | { kind: "number"; value: number; at: number }
  | { kind: "(" | ")" | "[" | "]"; at: number };

/** A filter the grammar or our limits refuse; the endpoint answers 400 scimType invalidFilter with `message`. */
export class ScimFilterError extends Error {
  override name = "ScimFilterError";
}

/** Longer filters are refused before any work (no client sends a filter of kilobytes). */
const MAX_FILTER_LENGTH = 1024;

// attrPath = [URI ":"] ATTRNAME *1subAttr (RFC 7644 §3.10); a URI holds ':' and '.', ATTRNAME letters,
// digits, '_', '-' and '$' (RFC 7643 §2.1: "$ref"). Case is the parser's business.
const WORD = /[A-Za-z0-9_$:.-]/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

export function tokenizeFilter(input: string): Token[] {
  if (input.length > MAX_FILTER_LENGTH)
    throw new ScimFilterError(`The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
    } else if (c === "(" || c === ")" || c === "[" || c === "]") {
      tokens.push({ kind: c, at: i });
      i++;
    } else if (c === '"') {
      const end = endOfString(input, i);
      tokens.push({ kind: "string", value: decodeString(input.slice(i, end), i), at: i });
      i = end;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      const match = NUMBER.exec(input.slice(i));
      const text = match?.[0];
      if (!text || (i + text.length < input.length && WORD.test(input[i + text.length]!)))
        throw new ScimFilterError(`Invalid number at position ${i}`);
      tokens.push({ kind: "number", value: Number(text), at: i });
      i += text.length;
    } else if (WORD.test(c)) {
      let end = i;
      while (end < input.length && WORD.test(input[end]!)) end++;
      tokens.push({ kind: "word", text: input.slice(i, end), at: i });
      i = end;
    } else {
      throw new ScimFilterError(`Unexpected character '${c}' at position ${i}`);
    }
  }
  return tokens;
}

/** The index just past the closing quote of the string starting at `start`. */
function endOfString(input: string, start: number): number {
  let i = start + 1;
  while (i < input.length) {
    if (input[i] === "\\") i += 2;
    else if (input[i] === '"') return i + 1;
    else i++;
  }
  throw new ScimFilterError(`Unterminated string starting at position ${start}`);
}

/** A JSON string (RFC 8259 §7): JSON.parse is the decoder, so every escape means what JSON says. */
function decodeString(quoted: string, at: number): string {
  try {
    const value: unknown = JSON.parse(quoted);
    if (typeof value === "string") return value;
  } catch {
    // falls through to the refusal below
  }
  throw new ScimFilterError(`Invalid string literal at position ${at}`);
}
