import { describe, expect, it } from "vitest";
import { useTestAuthPerTest } from "#test/test-auth.ts";

const { t, openAuth } = useTestAuthPerTest();

describe("0008-active-team-index", () => {
  it("indexes sessions.activeTeamId, which remove-team updates across every user's sessions", async () => {
    await openAuth();
    const indexes = await t.db.collection("sessions").indexes();
    expect(indexes.find((index) => index.name === "activeTeamId")?.key).toEqual({ activeTeamId: 1 });
    expect(
      await t.db.collection("_migrations").findOne({ _id: "0008-active-team-index" as never }),
    ).not.toBeNull();
  });
});
