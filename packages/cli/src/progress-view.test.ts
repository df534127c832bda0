import { render } from "ink-testing-library";
import { createElement as h } from "react";
import { describe, expect, it } from "vitest";
import { captureIo } from "#test/captured-io.ts";
import { startProgress } from "./progress.ts";
import { type ProgressState, ProgressView } from "./progress-view.ts";

function subscribable() {
  let listener: ((state: ProgressState) => void) | null = null;
  return {
    subscribe(next: (state: ProgressState) => void) {
      listener = next;
      return () => {
        listener = null;
      };
    },
    push(state: ProgressState) {
      listener?.(state);
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

describe("ProgressView (Ink)", () => {
  it("shows the step with a bar and the count, then the summary alone", async () => {
    const initial = { title: "migrate", label: "starting" };
    const source = subscribable();
    const view = render(h(ProgressView, { initial, subscribe: source.subscribe }));
    await tick();
    expect(view.lastFrame()).toContain("migrate: starting");
    source.push({ title: "migrate", label: "0002-organization-indexes", done: 1, total: 4 });
    await tick();
    expect(view.lastFrame()).toContain("migrate: 0002-organization-indexes");
    expect(view.lastFrame()).toContain("1/4");
    source.push({ title: "migrate", label: "0004", done: 4, total: 4, summary: "applied 4" });
    await tick();
    expect(view.lastFrame()).toBe("✔ migrate: applied 4");
    view.unmount();
  });
});

describe("startProgress on a terminal", () => {
  it("leaves a failure's summary with a cross, not the tick", async () => {
    const { io, stderr } = captureIo({ interactive: true });
    const progress = await startProgress({ io, json: false, connection: {} }, "packages");
    progress.step("building @tessera/auth-core", 0, 3);
    await tick();
    await progress.fail("stopped");
    expect(stderr()).toContain("✖ packages: stopped");
    expect(stderr()).not.toContain("✔");
  });

  it("draws on stderr and leaves the summary there, with nothing on stdout", async () => {
    const { io, stdout, stderr } = captureIo({ interactive: true });
    const progress = await startProgress({ io, json: false, connection: {} }, "migrate");
    progress.step("0001-users", 1, 2);
    await tick();
    progress.step("0002-sessions", 2, 2);
    await progress.finish("applied 2");
    expect(stderr()).toContain("✔ migrate: applied 2");
    expect(stdout()).toBe("");
  });
});
