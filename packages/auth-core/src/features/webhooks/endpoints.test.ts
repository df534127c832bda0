import { ObjectId } from "mongodb";
import { afterEach, describe, expect, it } from "vitest";
import { signUpPerson } from "#test/admin.ts";
import { TestBrowser } from "#test/browser.ts";
import { useFixtures } from "#test/organization.ts";

/**
 * The webhook endpoints' scopes (docs/security.md "Webhooks", the IDOR rule): an organization's
 * owners and admins manage its endpoints and no other; app-wide endpoints need the admin area's
 * `webhook: ["manage"]`; another scope's endpoint is "not found" and stays as it was.
 */

const open = useFixtures({ webhooks: { enabled: true, pollInterval: 60_000 } });
let stopWorker: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopWorker?.();
  stopWorker = undefined;
});

async function setUp() {
  const f = await open();
  stopWorker = async () => {
    await f.t.auth.webhooks?.stop();
  };
  const root = await signUpPerson(f.t, "root", "admin");
  return { ...f, root: root.browser };
}

const URL_A = "https://hooks.example.com/a";
const error = (code: string, message: string) => ({ code, message });

describe("webhook endpoints", { timeout: 90_000 }, () => {
  it("an organization's owner and admin manage its endpoints; a member, an outsider and another owner cannot", async () => {
    const f = await setUp();
    const created = await f.O.browser.post<{ endpoint: { id: string; organizationId: string } }>(
      "/webhooks/create",
      { organizationId: f.A, url: URL_A, eventTypes: ["member.added"] },
    );
    expect(created.status).toBe(200);
    expect(created.body.endpoint.organizationId).toBe(f.A);
    const listed = await f.D.browser.get<{ id: string }[]>(`/webhooks/list?organizationId=${f.A}`);
    expect(listed.body.map((endpoint) => endpoint.id)).toEqual([created.body.endpoint.id]);

    const refusals: [TestBrowser, number, ReturnType<typeof error>][] = [
      [
        f.M.browser,
        403,
        error("WEBHOOK_MANAGE_NOT_ALLOWED", "You are not allowed to manage this organization's webhooks"),
      ],
      [f.X.browser, 403, error("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization")],
      [f.P.browser, 403, error("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization")],
      [new TestBrowser(f.t.auth), 401, error("UNAUTHORIZED", "unauthorized")],
    ];
    for (const [caller, status, body] of refusals) {
      const create = await caller.post("/webhooks/create", { organizationId: f.A, url: URL_A });
      expect([create.status, create.body]).toEqual([status, body]);
      const list = await caller.get(`/webhooks/list?organizationId=${f.A}`);
      expect([list.status, list.body]).toEqual([status, body]);
    }
    expect(await f.t.db.collection("webhookEndpoints").countDocuments()).toBe(1);
  });

  it("an organization's endpoint names only its organization's event types; an app-wide one any", async () => {
    const f = await setUp();
    const refusal = error(
      "WEBHOOK_EVENT_TYPE_NOT_ORGANIZATION",
      "An organization's webhook receives only organization, member, invitation and team events: the others go to the app's webhooks",
    );
    const endpoints = f.t.db.collection("webhookEndpoints");
    for (const eventTypes of [
      ["user.created"],
      ["member.added", "session.created"],
      ["passkey.registered"],
    ]) {
      const create = await f.O.browser.post("/webhooks/create", {
        organizationId: f.A,
        url: URL_A,
        eventTypes,
      });
      expect([create.status, create.body]).toEqual([400, refusal]);
    }
    expect(await endpoints.countDocuments()).toBe(0);

    const types = [
      "organization.updated",
      "member.added",
      "invitation.accepted",
      "team.created",
      "team_member.added",
    ];
    const created = await f.O.browser.post<{ endpoint: { id: string } }>("/webhooks/create", {
      organizationId: f.A,
      url: URL_A,
      eventTypes: types,
    });
    expect(created.status).toBe(200);
    const ref = { organizationId: f.A, endpointId: created.body.endpoint.id };
    const update = await f.O.browser.post("/webhooks/update", { ...ref, eventTypes: ["user.updated"] });
    expect([update.status, update.body]).toEqual([400, refusal]);
    const stored = await endpoints.findOne({ _id: new ObjectId(created.body.endpoint.id) });
    expect(stored?.eventTypes).toEqual(types);

    const appWide = await f.root.post("/webhooks/create", {
      url: URL_A,
      eventTypes: ["user.created", "session.created", "member.added"],
    });
    expect(appWide.status).toBe(200);
  });

  it("an endpoint of another scope is not found by any call, and stays as it was", async () => {
    const f = await setUp();
    const ofA = await f.O.browser.post<{ endpoint: { id: string } }>("/webhooks/create", {
      organizationId: f.A,
      url: URL_A,
    });
    const appWide = await f.root.post<{ endpoint: { id: string } }>("/webhooks/create", { url: URL_A });
    const before = await f.t.db.collection("webhookEndpoints").find({}).sort({ _id: 1 }).toArray();
    const attempts: [TestBrowser, string | undefined, string][] = [
      [f.P.browser, f.B, ofA.body.endpoint.id],
      [f.root, undefined, ofA.body.endpoint.id],
      [f.O.browser, f.A, appWide.body.endpoint.id],
    ];
    const notFound = error("WEBHOOK_ENDPOINT_NOT_FOUND", "Webhook endpoint not found");
    for (const [caller, organizationId, endpointId] of attempts) {
      const ref = { ...(organizationId ? { organizationId } : {}), endpointId };
      const query = new URLSearchParams(ref).toString();
      const calls = [
        caller.get(`/webhooks/get?${query}`),
        caller.get(`/webhooks/deliveries?${query}`),
        caller.post("/webhooks/update", { ...ref, enabled: false }),
        caller.post("/webhooks/rotate-secret", ref),
        caller.post("/webhooks/test", ref),
        caller.post("/webhooks/replay", { ...ref, from: "2020-01-01T00:00:00Z" }),
        caller.post("/webhooks/delete", ref),
      ];
      for (const res of await Promise.all(calls)) expect([res.status, res.body]).toEqual([404, notFound]);
    }
    expect(await f.t.db.collection("webhookEndpoints").find({}).sort({ _id: 1 }).toArray()).toEqual(before);
    expect(await f.t.db.collection("webhookDeliveries").countDocuments()).toBe(0);
  });

  it("app-wide endpoints need the admin area's permission", async () => {
    const f = await setUp();
    const res = await f.O.browser.post("/webhooks/create", { url: URL_A });
    expect([res.status, res.body]).toEqual([
      403,
      error("RESOURCE_ACCESS_NOT_ALLOWED", "not allowed to access resource"),
    ]);
    const list = await f.O.browser.get("/webhooks/list");
    expect(list.status).toBe(403);
  });

  it("the secret is answered once, stored encrypted, and never listed", async () => {
    const f = await setUp();
    const created = await f.root.post<{ endpoint: { id: string }; secret: string }>("/webhooks/create", {
      url: URL_A,
    });
    const { secret } = created.body;
    expect(secret).toMatch(/^whsec_/);
    const stored = await f.t.db
      .collection("webhookEndpoints")
      .findOne({ _id: new ObjectId(created.body.endpoint.id) });
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6, 20));
    expect(stored!.secrets[0].secret).toMatch(/^v1\./);
    const listed = await f.root.get("/webhooks/list");
    const got = await f.root.get(`/webhooks/get?endpointId=${created.body.endpoint.id}`);
    for (const answer of [listed, got]) {
      expect(JSON.stringify(answer.body)).not.toContain("whsec_");
      expect(JSON.stringify(answer.body)).not.toContain("v1.");
    }
  });

  it("refuses bad input with a catalogue message and stores nothing", async () => {
    const f = await setUp();
    const cases: [unknown, number, string][] = [
      [{ url: "ftp://hooks.example.com" }, 400, "INVALID_WEBHOOK_URL"],
      [{ url: "not a url" }, 400, "INVALID_WEBHOOK_URL"],
      [{ url: "https://user:pass@hooks.example.com/" }, 400, "INVALID_WEBHOOK_URL"],
      [{ url: URL_A, eventTypes: ["Not an event"] }, 400, "VALIDATION_ERROR"],
      [{ url: URL_A, organizationId: "nope" }, 400, "ORGANIZATION_NOT_FOUND"],
      [{ url: URL_A, extra: true }, 400, "VALIDATION_ERROR"],
    ];
    for (const [body, status, code] of cases) {
      const res = await f.root.post<{ code: string }>("/webhooks/create", body);
      expect([res.status, res.body.code]).toEqual([status, code]);
    }
    expect(await f.t.db.collection("webhookEndpoints").countDocuments()).toBe(0);
    const created = await f.root.post<{ endpoint: { id: string } }>("/webhooks/create", { url: URL_A });
    const nothing = await f.root.post("/webhooks/update", { endpointId: created.body.endpoint.id });
    expect([nothing.status, nothing.body]).toEqual([
      400,
      error("NO_FIELDS_TO_UPDATE", "No fields to update"),
    ]);
  });

  it("enabling a disabled endpoint clears why it was disabled; disabling by hand gives no reason", async () => {
    const f = await setUp();
    const created = await f.root.post<{ endpoint: { id: string } }>("/webhooks/create", { url: URL_A });
    const id = created.body.endpoint.id;
    await f.t.db
      .collection("webhookEndpoints")
      .updateOne(
        { _id: new ObjectId(id) },
        { $set: { enabled: false, disabledReason: "failing", failingSince: new Date(0) } },
      );
    const enabled = await f.root.post("/webhooks/update", { endpointId: id, enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    const disabled = await f.root.post("/webhooks/update", { endpointId: id, enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, disabledReason: null });
  });

  it("without webhooks enabled the endpoints answer that they are off", async () => {
    const f = await open({ webhooks: { enabled: false } });
    const root = await signUpPerson(f.t, "root", "admin");
    const res = await root.browser.post("/webhooks/create", { url: URL_A });
    expect([res.status, res.body]).toEqual([400, error("WEBHOOKS_NOT_ENABLED", "Webhooks are not enabled")]);
  });
});
