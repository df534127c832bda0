import { describe, expect, it } from "vitest";
import { withinRequestTimeout } from "./deadline.ts";

describe("withinRequestTimeout", () => {
  it("gives the work's own result or error when it settles in time", async () => {
    await expect(withinRequestTimeout(Promise.resolve("done"), 1000)).resolves.toBe("done");
    await expect(withinRequestTimeout(Promise.reject(new Error("boom")), 1000)).rejects.toThrow("boom");
  });

  it("answers SERVICE_UNAVAILABLE once the bound has passed, naming the option in the cause", async () => {
    const never = new Promise<string>(() => {});
    const started = Date.now();
    const error = await withinRequestTimeout(never, 50).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503, message: "Service unavailable" });
    expect(String((error as Error).cause)).toContain("advanced.requestTimeoutMs (50 ms)");
  });

  it("leaves the work unbounded with 0", async () => {
    const work = new Promise<string>((resolve) => setTimeout(() => resolve("late"), 80));
    expect(withinRequestTimeout(work, 0)).toBe(work);
    await expect(work).resolves.toBe("late");
  });
});
