import { describe, expect, it } from "vitest";
import { insertWithinLimit } from "./bounded-insert.ts";

/**
 * The decision logic of insertWithinLimit on scripted counts (the database races themselves are in
 * limit-races.test.ts against FerretDB): what it inserts, keeps, undoes and answers.
 */
function scripted(counts: number[]) {
  const log: string[] = [];
  let inserted = 0;
  return {
    log,
    steps: {
      count: async () => {
        const next = counts.shift();
        if (next === undefined) throw new Error("unexpected count");
        log.push(`count=${next}`);
        return next;
      },
      insert: async () => {
        inserted++;
        log.push(`insert#${inserted}`);
        return inserted;
      },
      undo: async (value: number) => {
        log.push(`undo#${value}`);
      },
    },
  };
}

describe("insertWithinLimit", () => {
  it("keeps the insert when the count after it is within the limit", async () => {
    const { log, steps } = scripted([2, 3]);
    expect(await insertWithinLimit(steps, 3)).toBe(1);
    expect(log).toEqual(["count=2", "insert#1", "count=3"]);
  });

  it("inserts nothing when the limit is already reached", async () => {
    const { log, steps } = scripted([3]);
    expect(await insertWithinLimit(steps, 3)).toBeNull();
    expect(log).toEqual(["count=3"]);
  });

  it("undoes an insert that finds the limit exceeded, and tries again while there is room", async () => {
    const { log, steps } = scripted([2, 5, 2, 3]);
    expect(await insertWithinLimit(steps, 3)).toBe(2);
    expect(log).toEqual(["count=2", "insert#1", "count=5", "undo#1", "count=2", "insert#2", "count=3"]);
  });

  it("stops when the retry finds the limit reached by others", async () => {
    const { log, steps } = scripted([2, 4, 3]);
    expect(await insertWithinLimit(steps, 3)).toBeNull();
    expect(log).toEqual(["count=2", "insert#1", "count=4", "undo#1", "count=3"]);
  });

  it("gives up after four contended attempts, every insert undone", async () => {
    const { log, steps } = scripted([0, 9, 0, 9, 0, 9, 0, 9]);
    expect(await insertWithinLimit(steps, 1)).toBeNull();
    expect(log.filter((entry) => entry.startsWith("insert"))).toHaveLength(4);
    expect(log.filter((entry) => entry.startsWith("undo"))).toEqual(["undo#1", "undo#2", "undo#3", "undo#4"]);
  });
});
