import { MongoServerError, ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { signIn, useFixtures } from "#test/organization.ts";
import { claimSeat, type SeatClaim } from "./seats.ts";

/**
 * Review finding 11: without `teams.maximumMembersPerTeam` there is nothing to claim, so a team add
 * that loses its first seat reads one row (the highest seat), never every seat of the team.
 */
const fixture = useFixtures({ organization: { teams: { enabled: true } } });

/** A claim over an in-memory seat set that records which reads it was asked for. */
function recordingClaim(taken: Set<number>, reads: string[]): SeatClaim<number> {
  return {
    count: async () => taken.size,
    takenSeats: async () => {
      reads.push("takenSeats");
      return [...taken];
    },
    highestSeat: async () => {
      reads.push("highestSeat");
      return Math.max(-1, ...taken);
    },
    isAlreadyIn: async () => false,
    insert: async (seat) => {
      if (taken.has(seat)) throw new MongoServerError({ message: "E11000 duplicate key", code: 11000 });
      taken.add(seat);
      return seat;
    },
    remove: async (seat) => {
      taken.delete(seat);
    },
  };
}

describe("claimSeat without a limit", () => {
  it("after a lost seat reads only the highest seat and takes one above it", async () => {
    // Four taken: the first try (seat 4) loses.
    const taken = new Set([0, 1, 4, 50]);
    const reads: string[] = [];
    const result = await claimSeat(recordingClaim(taken, reads), Number.POSITIVE_INFINITY);
    expect(result.ok).toBe(true);
    const seat = (result as { value: number }).value;
    expect(seat).toBeGreaterThan(50);
    expect(seat).toBeLessThan(59);
    expect(reads).toEqual(["highestSeat"]);
  });

  it("with a limit still reads the taken seats below it", async () => {
    const reads: string[] = [];
    const result = await claimSeat(recordingClaim(new Set([0, 2]), reads), 5);
    expect(result).toEqual({ ok: true, value: expect.any(Number) });
    expect(reads).toEqual(["takenSeats"]);
  });
});

describe("organization/add-team-member without a team limit", () => {
  it("a lost first seat costs one bounded read; parallel adds all join with distinct seats", async () => {
    const { t, O, A } = await fixture();
    const created = await O.browser.post<{ id: string }>("/organization/create-team", {
      organizationId: A,
      name: "Core",
    });
    expect(created.status).toBe(200);
    const teamId = new ObjectId(created.body.id);
    const users = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(t, `ts${i}`)));
    for (const user of users)
      await t.auth.api.addMember({ body: { organizationId: A, userId: user.userId, role: "member" } });
    const [first, ...rest] = users;
    expect(
      (
        await O.browser.post("/organization/add-team-member", {
          teamId: created.body.id,
          userId: first!.userId,
        })
      ).status,
    ).toBe(200);
    // A gap below the count: the next add's first seat (the count, 1) is taken.
    await t.db.collection("teamMembers").updateOne({ teamId }, { $set: { seat: 1 } });
    const [second, ...parallel] = rest;
    const commands = await t.commands(() =>
      O.browser.post("/organization/add-team-member", { teamId: created.body.id, userId: second!.userId }),
    );
    const teamReads = commands.filter((command) => command.endsWith(":teamMembers"));
    // count, lost insert, already-in check, highest seat, won insert: no read of every seat.
    expect(teamReads).toEqual([
      "aggregate:teamMembers",
      "insert:teamMembers",
      "find:teamMembers",
      "find:teamMembers",
      "insert:teamMembers",
    ]);
    const results = await Promise.all(
      parallel.map((user) =>
        O.browser.post("/organization/add-team-member", { teamId: created.body.id, userId: user.userId }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(parallel.map(() => 200));
    const rows = await t.db.collection("teamMembers").find({ teamId }).toArray();
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((row) => row.seat)).size).toBe(10);
    expect(new Set(rows.map((row) => String(row.userId)))).toEqual(new Set(users.map((u) => u.userId)));
  });
});
