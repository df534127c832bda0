import { describe, expect, it } from "vitest";
import { errorBody, type Fixture, type SignedIn, useFixtures } from "#test/organization.ts";

/**
 * GET /organization/list-audit-events (Organization → Activity): an organization's owners and
 * admins read its audit trail, filtered by member, action and date, a page at a time; nobody else
 * does, and no organization reads another's rows.
 */
const openFixture = useFixtures({ organization: { teams: { enabled: true } } });

interface AuditList {
  events: {
    action: string;
    actorId: string | null;
    subjectId: string | null;
    details: { organizationId: string };
  }[];
  total: number;
  limit: number;
  offset: number;
}

async function createTeam(by: SignedIn, organizationId: string, name: string): Promise<string> {
  const res = await by.browser.post<{ id: string }>("/organization/create-team", { organizationId, name });
  expect(res.status).toBe(200);
  return res.body.id;
}

/** Org A's owner puts D then M in a team (two audit rows, subjects D and M); org B's owner puts Q in one. */
async function auditedOrganizations(): Promise<Fixture> {
  const f = await openFixture();
  const teamA = await createTeam(f.O, f.A, "Core");
  const teamB = await createTeam(f.P, f.B, "Ops");
  for (const [by, teamId, user] of [
    [f.O, teamA, f.D],
    [f.O, teamA, f.M],
    [f.P, teamB, f.Q],
  ] as const) {
    const res = await by.browser.post("/organization/add-team-member", { teamId, userId: user.userId });
    expect(res.status).toBe(200);
  }
  return f;
}

const list = (by: SignedIn, query: string) =>
  by.browser.get<AuditList>(`/organization/list-audit-events?${query}`);

describe("GET /organization/list-audit-events", () => {
  it("an owner and an admin read their organization's rows, newest first, and only those", async () => {
    const f = await auditedOrganizations();
    for (const reader of [f.O, f.D]) {
      const res = await list(reader, `organizationId=${f.A}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(res.body.events.map((event) => [event.action, event.subjectId])).toEqual([
        ["organization.add-team-member", f.M.userId],
        ["organization.add-team-member", f.D.userId],
      ]);
      expect(res.body.events.every((event) => event.details.organizationId === f.A)).toBe(true);
    }
  });

  it("a plain member is refused; another organization's owner and an outsider are refused as not members", async () => {
    const f = await auditedOrganizations();
    const member = await list(f.M, `organizationId=${f.A}`);
    expect(member.status).toBe(403);
    expect(member.body).toEqual(errorBody("RESOURCE_ACCESS_NOT_ALLOWED", "not allowed to access resource"));
    const other = await list(f.P, `organizationId=${f.A}`);
    expect(other.status).toBe(403);
    expect(other.body).toEqual(
      errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization"),
    );
    const outsider = await list(f.X, `organizationId=${f.A}`);
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual(other.body);
  });

  it("filters by member (who acted or was acted on), action and date range, and pages with the total", async () => {
    const f = await auditedOrganizations();
    const bySubject = await list(f.O, `organizationId=${f.A}&userId=${f.M.userId}`);
    expect(bySubject.body.events.map((event) => event.subjectId)).toEqual([f.M.userId]);
    const byActor = await list(f.O, `organizationId=${f.A}&userId=${f.O.userId}`);
    expect(byActor.body.total).toBe(2);
    const byAction = await list(f.O, `organizationId=${f.A}&action=organization.remove-team-member`);
    expect(byAction.body).toMatchObject({ events: [], total: 0 });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const past = new Date(Date.now() - 3_600_000).toISOString();
    expect((await list(f.O, `organizationId=${f.A}&from=${future}`)).body.total).toBe(0);
    expect((await list(f.O, `organizationId=${f.A}&to=${past}`)).body.total).toBe(0);
    expect((await list(f.O, `organizationId=${f.A}&from=${past}&to=${future}`)).body.total).toBe(2);
    const first = await list(f.O, `organizationId=${f.A}&limit=1`);
    const second = await list(f.O, `organizationId=${f.A}&limit=1&offset=1`);
    expect(first.body).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect([...first.body.events, ...second.body.events].map((event) => event.subjectId)).toEqual([
      f.M.userId,
      f.D.userId,
    ]);
    const malformed = await list(f.O, `organizationId=${f.A}&userId=not-an-id`);
    expect(malformed.body).toMatchObject({ events: [], total: 0 });
    const bad = await f.O.browser.get(`/organization/list-audit-events?organizationId=${f.A}&action=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "VALIDATION_ERROR" });
  });
});
