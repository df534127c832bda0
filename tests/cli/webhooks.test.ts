import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOrganization, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import {
  webhooksAddAction,
  webhooksListAction,
  webhooksRemoveAction,
  webhooksReplayAction,
  webhooksTestAction,
} from "../../packages/cli/src/commands/webhooks.ts";
import { EXIT, toKnownError } from "../../packages/cli/src/errors.ts";
import { testRun } from "./run-context.ts";

/**
 * `tessera webhooks list|add|remove|test|replay` against the test database: the operator goes through
 * the same webhook endpoints as the pages (features/webhooks), and every refusal has its exit code.
 */
// No worker here or in the CLI's instance: nothing tries to reach hooks.example.com.
const WEBHOOKS = { enabled: true, worker: false };
const t = useTestAuth({ webhooks: WEBHOOKS });
let dir: string;
let config: string;

vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tessera-webhooks-"));
  config = join(dir, "tessera.config.ts");
  await writeFile(
    config,
    `export default { baseURL: "https://app.example.com", webhooks: ${JSON.stringify(WEBHOOKS)} };\n`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run() {
  const captured = testRun(t.db.databaseName, { json: true });
  captured.connection.config = config;
  return captured;
}

async function failure(work: Promise<unknown>): Promise<{ exit: number; code: string }> {
  try {
    await work;
  } catch (error) {
    const known = toKnownError(error);
    if (!known) throw error;
    return { exit: known.exitCode, code: known.code };
  }
  throw new Error("expected the command to fail");
}

describe("tessera webhooks", () => {
  it("adds, lists, tests, replays and removes an app-wide endpoint", async () => {
    const added = await webhooksAddAction(run(), "https://hooks.example.com/tessera", {
      events: "user.created, user.deleted",
      description: "CRM",
    });
    expect(added.secret).toMatch(/^whsec_/);
    expect(added.endpoint).toMatchObject({
      url: "https://hooks.example.com/tessera",
      eventTypes: ["user.created", "user.deleted"],
      description: "CRM",
      organizationId: null,
      enabled: true,
    });
    const listed = await webhooksListAction(run(), {});
    expect(listed.map((endpoint) => endpoint.id)).toEqual([added.endpoint.id]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");

    const queued = await webhooksTestAction(run(), added.endpoint.id, {});
    expect(queued).toMatchObject({ eventType: "webhook.test", status: "pending", attempts: [] });
    const row = await t.db.collection("webhookDeliveries").findOne({ _id: queued.id as never });
    expect(row).toMatchObject({ status: "pending", eventType: "webhook.test" });

    expect(await webhooksReplayAction(run(), added.endpoint.id, { delivery: queued.id })).toEqual({
      replayed: 1,
    });
    expect(await webhooksReplayAction(run(), added.endpoint.id, { since: "2020-01-01T00:00:00Z" })).toEqual({
      replayed: 1,
    });
    expect(await webhooksReplayAction(run(), added.endpoint.id, { since: "7d" })).toEqual({
      replayed: 1,
    });

    expect(await webhooksRemoveAction(run(), added.endpoint.id, { yes: true })).toEqual({
      success: true,
      endpointId: added.endpoint.id,
    });
    expect(await t.db.collection("webhookEndpoints").countDocuments()).toBe(0);
    expect(await t.db.collection("webhookDeliveries").countDocuments()).toBe(0);
  });

  it("without the app's options, the refusal says to pass them with --config (exit 4)", async () => {
    const error = await webhooksListAction(testRun(t.db.databaseName), {}).catch((caught: unknown) => caught);
    expect([toKnownError(error)?.exitCode, toKnownError(error)?.message]).toEqual([
      EXIT.refused,
      "Webhooks are not enabled: no tessera.config.ts was found. Pass the app's options with --config (webhooks: { enabled: true })",
    ]);
  });

  it("answers each refusal with its exit code and changes nothing", async () => {
    const missing = "6650f1c2a4e0b9d3c1a2b3c4";
    expect(await failure(webhooksRemoveAction(run(), missing, { yes: true }))).toEqual({
      exit: EXIT.notFound,
      code: "WEBHOOK_ENDPOINT_NOT_FOUND",
    });
    expect(await failure(webhooksAddAction(run(), "http://10.0.0.8/hooks", {}))).toEqual({
      exit: EXIT.refused,
      code: "INVALID_WEBHOOK_URL",
    });
    expect(
      await failure(webhooksAddAction(run(), "https://hooks.example.com", { events: "Not a type" })),
    ).toEqual({
      exit: EXIT.usage,
      code: "VALIDATION_ERROR",
    });
    expect(await failure(webhooksReplayAction(run(), missing, {}))).toEqual({
      exit: EXIT.usage,
      code: "USAGE",
    });
    expect(await failure(webhooksReplayAction(run(), missing, { since: "yesterday" }))).toEqual({
      exit: EXIT.usage,
      code: "USAGE",
    });
    expect(await failure(webhooksListAction(run(), { org: missing }))).toEqual({
      exit: EXIT.notFound,
      code: "ORGANIZATION_NOT_FOUND",
    });
    expect(await t.db.collection("webhookEndpoints").countDocuments()).toBe(0);
  });

  it("--org takes the organization's slug as well as its id, as events list does", async () => {
    const owner = await signIn(t, "owner");
    const orgId = await createOrganization(owner, "acme-hooks");
    const { endpoint: added } = await webhooksAddAction(run(), "https://hooks.example.com/acme", {
      org: "acme-hooks",
    });
    const bySlug = await webhooksListAction(run(), { org: "acme-hooks" });
    const byId = await webhooksListAction(run(), { org: orgId });
    expect([bySlug.map((endpoint) => endpoint.id), byId.map((endpoint) => endpoint.id)]).toEqual([
      [added.id],
      [added.id],
    ]);
    expect(await webhooksListAction(run(), {})).toEqual([]);
    await webhooksRemoveAction(run(), added.id, { org: "acme-hooks", yes: true });
  });
});
