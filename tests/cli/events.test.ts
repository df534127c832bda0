import { describe, expect, it } from "vitest";
import { storedEvents } from "#test/events.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import { eventsListAction } from "../../packages/cli/src/commands/events.ts";
import { toKnownError } from "../../packages/cli/src/errors.ts";
import { exitOf, testRun } from "./run-context.ts";

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

  it("--since takes a span back from now (1h, 30m, 7d) as an operator types it", async () => {
    const cy = await signIn(t, "cy");
    await createOrganization(cy, "cy-org");
    await storedEvents(t);
    const lastHour = await eventsListAction(run(), { since: "1h", org: "cy-org" });
    expect(lastHour.events.map((event) => event.type)).toEqual(["organization.created", "member.added"]);
  });

  it("a --since that is neither a time nor a span is a usage error (exit 2) naming both forms", async () => {
    const error = await eventsListAction(run(), { since: "yesterday" }).catch((caught: unknown) => caught);
    expect(toKnownError(error)?.message).toBe(
      "--since must be an ISO 8601 time (2026-11-29T15:00:00Z) or a span back from now (30m, 1h, 7d), got yesterday",
    );
    expect(await exitOf(eventsListAction(run(), { since: "1 hour" }))).toEqual([2, "USAGE"]);
  });

  it("an unknown organization exits with ORGANIZATION_NOT_FOUND", async () => {
    const error = await eventsListAction(run(), { org: "nope" }).catch((caught: unknown) => caught);
    expect(toKnownError(error)?.message).toBe(
      'no organization with the id or slug "nope" (`tessera orgs list` lists them)',
    );
  });
});
