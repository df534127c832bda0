import { describe, expect, it } from "vitest";
import { countPerDay, signUpDays, tallyRoles } from "./rules.ts";

describe("signUpDays", () => {
  it("names the last 30 UTC days, oldest first, each a whole day ending at the next", () => {
    const days = signUpDays(new Date("2026-03-02T23:59:59.999Z"));
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({
      day: "2026-03-02",
      from: new Date("2026-03-02T00:00:00.000Z"),
      to: new Date("2026-03-03T00:00:00.000Z"),
    });
    expect(days[0]?.day).toBe("2026-02-01");
    expect(days.every((day, i) => i === 0 || day.from.getTime() === days[i - 1]!.to.getTime())).toBe(true);
  });
});

describe("tallyRoles", () => {
  it("counts a user under each of their roles, absent as the default role, most first", () => {
    expect(
      tallyRoles(
        [
          { role: "user", count: 10 },
          { role: "admin,support", count: 3 },
          { role: null, count: 2 },
          { role: " admin , admin ", count: 1 },
        ],
        "user",
      ),
    ).toEqual([
      { role: "user", count: 12 },
      { role: "admin", count: 4 },
      { role: "support", count: 3 },
    ]);
  });
});

describe("countPerDay", () => {
  it("counts each date on its UTC day, every day listed, dates outside the days left out", () => {
    const days = signUpDays(new Date("2026-03-02T12:00:00Z"), 3);
    const counts = countPerDay(days, [
      new Date("2026-02-28T00:00:00.000Z"),
      new Date("2026-02-28T23:59:59.999Z"),
      new Date("2026-03-02T08:00:00Z"),
      new Date("2026-02-27T23:59:59.999Z"),
      new Date("2026-03-03T00:00:00Z"),
    ]);
    expect(counts).toEqual([
      { day: "2026-02-28", count: 2 },
      { day: "2026-03-01", count: 0 },
      { day: "2026-03-02", count: 1 },
    ]);
  });
});
