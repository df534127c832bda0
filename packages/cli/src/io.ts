import type { Readable, Writable } from "node:stream";

/**
 * Where a command reads and writes, and how: stdout carries data only (one JSON document with
 * --json); progress, prompts and warnings go to stderr. Tests pass their own streams.
 */
export interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** stdin and stderr are terminals (not TERM=dumb): prompts and Ink progress are allowed. */
  interactive: boolean;
  /** stdout is a terminal: tables rather than tab-separated lines. */
  stdoutIsTTY: boolean;
  /** false with NO_COLOR (or --no-color, TERM=dumb, or no terminal). */
  color: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIo(colorFlag = true): Io {
  const env = process.env;
  // TERM=dumb (Emacs shell buffers, some CI logs) shows escape codes as text: no colour, and no
  // Ink display or prompt (both move the cursor), as without a terminal.
  const dumb = env.TERM === "dumb";
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY) && env.CI === undefined && !dumb;
  const noColor = (env.NO_COLOR !== undefined && env.NO_COLOR !== "") || dumb;
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    interactive,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    color: colorFlag && !noColor && Boolean(process.stderr.isTTY || process.stdout.isTTY),
    env,
    cwd: process.cwd(),
  };
}

export function writeLine(stream: Writable, line = ""): void {
  stream.write(`${line}\n`);
}

/** One JSON document on stdout (stable shapes: docs/cli.md). */
export function writeJson(io: Io, value: unknown): void {
  writeLine(io.stdout, JSON.stringify(value, null, 2));
}

const STYLES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39] } as const;

export function paint(io: Io, style: keyof typeof STYLES, text: string): string {
  if (!io.color) return text;
  const [open, close] = STYLES[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}
