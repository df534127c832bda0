import { describe, expect, it } from "vitest";
import { storedEvents } from "#test/events.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import { eventsListAction } from "../../packages/cli/src/commands/events.ts";
import { toKnownError } from "../../packages/cli/src/errors.ts";
import { testRun } from "./run-context.ts";

/** `tessera events list --type --org --since`: the admin listing of events, as the operator. */
const t = useTestAuth();
const run = () => testRun(t.db.databaseName);

describe("tessera events list", () => {
  it("lists events newest first, by organization slug, type and since", async () => {
    const ada = await signIn(t, "ada");
    const bob = await signIn(t, "bob");
    const adaOrg = await createOrganization(ada, "ada-org");
    await createOrganization(bob, "bob-org");
    await storedEvents(t);
    const byOrg = await eventsListAction(run(), { org: "ada-org" });
    expect(byOrg.events.map((event) => [event.type, event.organizationId])).toEqual([
      ["organization.created", adaOrg],
      ["member.added", adaOrg],
    ]);
    const byType = await eventsListAction(run(), { type: "user.created" });
    expect(byType.events.map((event) => (event.data as { email: string }).email)).toEqual([
      "bob@example.com",
      "ada@example.com",
    ]);
    const later = await eventsListAction(run(), {
      since: new Date(t.now().getTime() + 60_000).toISOString(),
    });
    expect(later.events).toEqual([]);
  });

  it("an unknown organization exits with ORGANIZATION_NOT_FOUND", async () => {
    const error = await eventsListAction(run(), { org: "nope" }).catch((caught: unknown) => caught);
    expect(toKnownError(error)?.message).toBe("no organization nope");
  });
});
