import { beforeAll, describe, expect, it } from "vitest";
import { useAdminCast } from "#test/admin.ts";
import { AUDIT_ACTIONS } from "../../contracts/admin-fields.ts";

/** Issue 14 gap 2: list-audit-events filters by `action` on the server, exactly, over HTTP. */
const { t, admin, user } = useAdminCast({ open: "once" });

interface EventList {
  events: { action: string; subjectId: string | null }[];
  total: number;
}

beforeAll(async () => {
  // Two bans and an unban of the user, one role change: four events of three actions.
  for (const path of ["/admin/ban-user", "/admin/unban-user", "/admin/ban-user", "/admin/unban-user"])
    expect((await admin.browser.post(path, { userId: user.id })).status).toBe(200);
  expect((await admin.browser.post("/admin/set-role", { userId: user.id, role: "user" })).status).toBe(200);
});

const list = (query: string) => admin.browser.get<EventList>(`/admin/list-audit-events?${query}`);

describe("GET /admin/list-audit-events?action", () => {
  it("answers only events of that action, with their total (all pages)", async () => {
    const bans = await list("action=user.ban");
    expect(bans.status).toBe(200);
    expect(bans.body.events.map((event) => event.action)).toEqual(["user.ban", "user.ban"]);
    expect(bans.body.total).toBe(2);
    const paged = await list("action=user.unban&limit=1&offset=1");
    expect(paged.body.events.map((event) => event.action)).toEqual(["user.unban"]);
    expect(paged.body.total).toBe(2);
    const roles = await list(`action=user.set-role&subjectId=${user.id}`);
    expect(roles.body.events.map((event) => [event.action, event.subjectId])).toEqual([
      ["user.set-role", user.id],
    ]);
    expect((await list("action=session.revoke")).body).toMatchObject({ events: [], total: 0 });
    // Without the filter, every action.
    expect((await list("")).body.total).toBe(5);
  });

  it.each([
    ["an unknown action", "action=user.hack"],
    ["a prefix of a known one", "action=user."],
    ["another case", "action=USER.BAN"],
    ["an operator in the key", "action[$ne]=x"],
    ["an empty value", "action="],
  ])("refuses %s with 400 Invalid request", async (_name, query) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", message: "Invalid request" });
    expect(await t.db.collection("auditEvents").countDocuments()).toBe(5);
  });

  it("accepts every known action", async () => {
    for (const action of AUDIT_ACTIONS) expect((await list(`action=${action}`)).status).toBe(200);
  });

  it("is documented in the OpenAPI document as an enum of the known actions", async () => {
    const res = await admin.browser.get<{
      paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }>;
    }>("/openapi.json");
    expect(res.status).toBe(200);
    const parameter = res.body.paths["/api/auth/admin/list-audit-events"]?.get.parameters.find(
      (entry) => entry.name === "action",
    );
    expect(parameter?.schema.enum).toEqual([...AUDIT_ACTIONS]);
  });
});
