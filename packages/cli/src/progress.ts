import { writeLine } from "./io.ts";
import type { RunContext } from "./kit.ts";
import type { ProgressState } from "./progress-view.ts";

/** Progress of a long command: Ink on a terminal (on stderr), plain lines otherwise, nothing with --json. */
export interface Progress {
  /** A new step ("0003-social-indexes"), with how far along the whole is when known. */
  step(label: string, done?: number, total?: number): void;
  /** Ends the display; `summary` stays on screen (or is printed as a line). */
  finish(summary: string): Promise<void>;
  /** Ends the display on a failure: `summary` stays, marked as failed (the error follows it). */
  fail(summary: string): Promise<void>;
}

export async function startProgress(run: RunContext, title: string): Promise<Progress> {
  if (run.json) return { step() {}, async finish() {}, async fail() {} };
  if (!run.io.interactive) {
    return {
      step(label, done, total) {
        writeLine(
          run.io.stderr,
          total === undefined ? `${title}: ${label}` : `${title}: ${label} (${done}/${total})`,
        );
      },
      async finish(summary) {
        writeLine(run.io.stderr, `${title}: ${summary}`);
      },
      async fail(summary) {
        writeLine(run.io.stderr, `${title}: ${summary}`);
      },
    };
  }
  // Loaded only here, so a command without a terminal display never loads Ink and React.
  const { mountProgressView } = await import("./progress-view.ts");
  let state: ProgressState = { title, label: "starting" };
  const display = mountProgressView(run, state);
  return {
    step(label, done, total) {
      state = { title, label, done, total };
      display.show(state);
    },
    async finish(summary) {
      display.show({ ...state, summary });
      await display.close();
    },
    async fail(summary) {
      display.show({ ...state, summary, failed: true });
      await display.close();
    },
  };
}
