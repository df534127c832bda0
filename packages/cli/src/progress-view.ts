import { ProgressBar, Spinner } from "@inkjs/ui";
import { Box, render, Text } from "ink";
import { createElement as h, type ReactElement, useEffect, useState } from "react";
import type { RunContext } from "./kit.ts";

export interface ProgressState {
  title: string;
  label: string;
  done?: number | undefined;
  total?: number | undefined;
  summary?: string | undefined;
  /** The summary is a failure's (a red cross instead of the green tick). */
  failed?: boolean | undefined;
}

type Listener = (state: ProgressState) => void;

/**
 * The Ink view of a Progress: a spinner and the current step, a bar when the total is known, then
 * the summary. Exported for its test (ink-testing-library renders it without a terminal).
 * @internal
 */
export function ProgressView(props: {
  initial: ProgressState;
  subscribe(listener: Listener): () => void;
}): ReactElement {
  const [state, setState] = useState(props.initial);
  useEffect(() => props.subscribe(setState), [props]);
  if (state.summary !== undefined) {
    const mark = state.failed ? h(Text, { color: "red" }, "✖ ") : h(Text, { color: "green" }, "✔ ");
    return h(Text, null, mark, `${state.title}: ${state.summary}`);
  }
  const fraction = state.total ? Math.round(((state.done ?? 0) / state.total) * 100) : null;
  return h(
    Box,
    { flexDirection: "column" },
    h(Spinner, { label: `${state.title}: ${state.label}` }),
    fraction === null
      ? null
      : h(
          Box,
          { gap: 1 },
          h(Box, { width: 30 }, h(ProgressBar, { value: fraction })),
          h(Text, null, `${state.done}/${state.total}`),
        ),
  );
}

/** A mounted ProgressView: `show` re-renders it with a new state, `close` leaves the last frame on screen. */
export interface ProgressDisplay {
  show(state: ProgressState): void;
  close(): Promise<void>;
}

/** Mounts the view on the run's stderr (stdout stays for the command's own output). */
export function mountProgressView(run: RunContext, initial: ProgressState): ProgressDisplay {
  let state = initial;
  const listeners = new Set<Listener>();
  const subscribe = (listener: Listener) => {
    listeners.add(listener);
    listener(state);
    return () => listeners.delete(listener);
  };
  const instance = render(h(ProgressView, { initial, subscribe }), {
    stdout: run.io.stderr as NodeJS.WriteStream,
    stdin: run.io.stdin as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    show(next) {
      state = next;
      for (const listener of listeners) listener(state);
    },
    async close() {
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The exit promise must exist before unmount resolves it (one made after never settles).
      const exited = instance.waitUntilExit();
      instance.unmount();
      await exited;
    },
  };
}
