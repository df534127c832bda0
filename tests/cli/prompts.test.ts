import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { confirmOrRefuse } from "../../packages/cli/src/kit.ts";
import { testRun } from "./run-context.ts";

/** The confirmation of destructive commands on a terminal, answered through an injected input stream. */
describe("confirmOrRefuse", () => {
  async function answer(keys: string) {
    const stdin = new PassThrough();
    const run = testRun("unused", { interactive: true, stdin });
    const asked = confirmOrRefuse(run, false, "Ban eve@example.com?");
    setTimeout(() => stdin.write(keys), 50);
    const outcome = await asked.then(
      () => "confirmed",
      (error: { exitCode: number; message: string }) => `${error.exitCode} ${error.message}`,
    );
    return { outcome, shown: run.stderr() };
  }

  it("asks on the terminal (stderr) and goes on after a yes", async () => {
    const { outcome, shown } = await answer("y");
    expect(shown).toContain("Ban eve@example.com?");
    expect(outcome).toBe("confirmed");
  });

  it("stops with exit 1 after a no, or after Enter on the default (no)", async () => {
    expect((await answer("n")).outcome).toBe("1 cancelled");
    expect((await answer("\r")).outcome).toBe("1 cancelled");
  });

  it("never asks with --yes, and refuses (exit 2) without a terminal", async () => {
    await expect(
      confirmOrRefuse(testRun("unused", { interactive: true }), true, "Ban?"),
    ).resolves.toBeUndefined();
    await expect(confirmOrRefuse(testRun("unused"), undefined, "Ban eve?")).rejects.toMatchObject({
      exitCode: 2,
      message: "Ban eve: refused without --yes (no terminal to ask on)",
    });
  });
});
