import { describe, expect, it } from "vitest";
import { createOrganization, signIn } from "#test/organization.ts";
import { useTestAuthPerTest } from "#test/test-auth.ts";
import { newEventId } from "./ids.ts";

/**
 * docs/architecture.md "Events written with the change": an outbox (`_events`) is never answered,
 * exported or handed to a hook, even while it still holds events (a relay that has not run yet).
 */
const { t } = useTestAuthPerTest({
  open: "each-test",
  overrides: { organization: { teams: { enabled: true } }, user: { deleteUser: { enabled: true } } },
});

describe("an outbox stays inside its document", () => {
  it("no answer of the user's, session's, organization's or key's endpoints shows a stranded outbox", async () => {
    const ada = await signIn(t, "ada");
    await t.db.collection("users").updateOne({ email: "ada@example.com" }, { $set: { role: "admin" } });
    const organizationId = await createOrganization(ada, "acme");
    await ada.browser.post("/organization/invite-member", { email: "bob@example.com", role: "member" });
    await ada.browser.post("/organization/create-team", { organizationId, name: "red" });
    await ada.browser.post("/api-key/create", { name: "ci" });
    await t.auth.context.collections.eventHub.settle();
    const marker = newEventId(t.now());
    const stranded = {
      _id: marker,
      type: "user.updated",
      createdAt: t.now(),
      organizationId: null,
      userId: null,
      data: {},
    };
    for (const name of [
      "users",
      "sessions",
      "accounts",
      "organizations",
      "members",
      "invitations",
      "teams",
      "apiKeys",
    ])
      await t.db.collection(name).updateMany({}, { $push: { _events: stranded } } as never);
    const answers = await Promise.all([
      ada.browser.get("/get-session"),
      ada.browser.get("/list-sessions"),
      ada.browser.get("/list-accounts"),
      ada.browser.get("/api-key/list"),
      ada.browser.get(`/organization/get-full-organization?organizationId=${organizationId}`),
      ada.browser.get(`/organization/list-members?organizationId=${organizationId}`),
      ada.browser.get(`/organization/list-invitations?organizationId=${organizationId}`),
      ada.browser.get(`/organization/list-teams?organizationId=${organizationId}`),
      ada.browser.get("/organization/list"),
      ada.browser.get("/admin/list-users"),
      ada.browser.get(`/admin/get-user?id=${ada.userId}`),
      ada.browser.post("/admin/list-user-sessions", { userId: ada.userId }),
      ada.browser.post("/update-user", { name: "Ada L." }),
      ada.browser.post("/organization/update", { organizationId, data: { name: "Acme Inc" } }),
      ada.browser.get("/export-user-data"),
    ]);
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain("_events");
      expect(text).not.toContain(marker);
    }
  });
});
