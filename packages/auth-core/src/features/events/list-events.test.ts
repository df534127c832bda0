import { describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { storedEvents } from "#test/events.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";

/** GET /admin/list-events and GET /organization/list-events: who reads which events, and paging. */
const { t } = useTestAuthPerTest({ open: "each-test" });

const FORBIDDEN = { code: "RESOURCE_ACCESS_NOT_ALLOWED", message: "not allowed to access resource" };
const NOT_A_MEMBER = {
  code: "NOT_A_MEMBER_OF_ORGANIZATION",
  message: "You are not a member of this organization",
};

async function twoOrganizations() {
  const ada = await signIn(t, "ada");
  const bob = await signIn(t, "bob");
  const adaOrg = await createOrganization(ada, "ada-org");
  const bobOrg = await createOrganization(bob, "bob-org");
  await storedEvents(t);
  return { ada, bob, adaOrg, bobOrg };
}

describe("GET /organization/list-events", () => {
  it("an owner reads their organization's events, newest first, and only those", async () => {
    const { ada, adaOrg } = await twoOrganizations();
    const res = await ada.browser.get<{
      events: { type: string; organizationId: string }[];
      nextCursor: null;
    }>(`/organization/list-events?organizationId=${adaOrg}`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((event) => [event.type, event.organizationId])).toEqual([
      ["organization.created", adaOrg],
      ["member.added", adaOrg],
    ]);
    expect(res.body.nextCursor).toBeNull();
  });

  it("another organization's events are refused as not a member (IDOR), and a plain member is refused", async () => {
    const { ada, bob, bobOrg, adaOrg } = await twoOrganizations();
    const other = await ada.browser.get(`/organization/list-events?organizationId=${bobOrg}`);
    expect(other.status).toBe(403);
    expect(other.body).toEqual(NOT_A_MEMBER);
    const { data } = await t.auth.api.addMember({
      body: { organizationId: adaOrg, userId: bob.userId, role: "member" },
    });
    expect(data).toBeTruthy();
    const member = await bob.browser.get(`/organization/list-events?organizationId=${adaOrg}`);
    expect(member.status).toBe(403);
    expect(member.body).toEqual(FORBIDDEN);
  });

  it("filters by type and pages with the cursor: the pages together are the whole list", async () => {
    const { ada, adaOrg } = await twoOrganizations();
    for (const name of ["Ada 1", "Ada 2", "Ada 3"])
      await ada.browser.post("/organization/update", { organizationId: adaOrg, data: { name } });
    await storedEvents(t);
    type Page = { events: { id: string; type: string }[]; nextCursor: string | null };
    const base = `/organization/list-events?organizationId=${adaOrg}`;
    const all = (await ada.browser.get<Page>(base)).body.events;
    expect(all.map((event) => event.type)).toEqual([
      "organization.updated",
      "organization.updated",
      "organization.updated",
      "organization.created",
      "member.added",
    ]);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = (await ada.browser.get<Page>(`${base}&limit=2${cursor ? `&cursor=${cursor}` : ""}`))
        .body;
      paged.push(...page.events.map((event) => event.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.map((event) => event.id));
    const typed = await ada.browser.get<Page>(`${base}&type=organization.created`);
    expect(typed.body.events.map((event) => event.type)).toEqual(["organization.created"]);
    const bad = await ada.browser.get(`${base}&type=nope`);
    expect(bad.status).toBe(400);
  });

  it("filters by the user an event is about: one member's changes", async () => {
    const { ada, bob, adaOrg } = await twoOrganizations();
    await t.auth.api.addMember({ body: { organizationId: adaOrg, userId: bob.userId, role: "member" } });
    await storedEvents(t);
    type Page = { events: { type: string; userId: string | null }[] };
    const base = `/organization/list-events?organizationId=${adaOrg}`;
    const bobs = await ada.browser.get<Page>(`${base}&userId=${bob.userId}`);
    expect(bobs.body.events.map((event) => [event.type, event.userId])).toEqual([
      ["member.added", bob.userId],
    ]);
    const adas = await ada.browser.get<Page>(`${base}&userId=${ada.userId}`);
    expect(adas.body.events.map((event) => event.type)).toEqual(["member.added"]);
  });
});

describe("GET /admin/list-events", () => {
  it("an admin reads every organization's events, filtered by organization and since", async () => {
    const { bobOrg } = await twoOrganizations();
    const admin = await signIn(t, "root");
    await t.db.collection("users").updateOne({ email: "root@example.com" }, { $set: { role: "admin" } });
    const res = await admin.browser.get<{ events: { type: string; organizationId: string | null }[] }>(
      `/admin/list-events?organizationId=${bobOrg}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.events.map((event) => [event.type, event.organizationId])).toEqual([
      ["organization.created", bobOrg],
      ["member.added", bobOrg],
    ]);
    const future = new Date(t.now().getTime() + 60_000).toISOString();
    const none = await admin.browser.get<{ events: unknown[] }>(
      `/admin/list-events?since=${encodeURIComponent(future)}`,
    );
    expect(none.body.events).toEqual([]);
  });

  it("a user without the admin role is refused and reads nothing", async () => {
    await twoOrganizations();
    const user = new TestBrowser(t.auth);
    await user.post("/sign-up/email", {
      name: "Eve",
      email: "eve@example.com",
      password: "correct horse battery",
    });
    const res = await user.get("/admin/list-events");
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN);
  });
});
