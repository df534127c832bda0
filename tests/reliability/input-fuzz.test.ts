import fc from "fast-check";
import type { Db } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { TestBrowser } from "#test/browser.ts";
import { snapshotDatabase } from "#test/database.ts";
import { createOrganization, signIn } from "#test/organization.ts";
import { useTestAuth } from "#test/test-auth.ts";
import { ERROR_CATALOGUE } from "../../packages/auth-core/src/errors/catalogue.ts";
import { createConformanceChecker } from "../client/openapi-conformance.ts";
import { arbitraryFor, type JsonSchema } from "./fuzz/schema-arbitrary.ts";
import { isFull, reportScenario } from "./harness/report.ts";

/**
 * "Fuzzing the API" (fast-check half): inputs drawn from each endpoint's documented
 * input schema, sent through `auth.handler` in-process against the real test database by a signed-in
 * admin who owns an organization. Every answer is 2xx (or a documented redirect) or a catalogue 4xx
 * — code, status and message as in the catalogue — never 5xx; answers conform to the document; and
 * a refused input changes nothing in the database (snapshotDatabase: every collection but counters).
 */
const RUNS_PER_OPERATION = isFull ? 25 : 5;
/** Each input costs a request and a database snapshot (~0.1 s on a busy machine): stop here anyway. */
const TIME_BUDGET_MS = isFull ? 15 * 60_000 : 3 * 60_000;
const SEED = Number(process.env.TESSERA_FUZZ_SEED ?? 16);

const t = useTestAuth({
  organization: { teams: { enabled: true } },
  user: { deleteUser: { enabled: true } },
});

interface Operation {
  path: string;
  method: string;
  body: JsonSchema | null;
  query: JsonSchema | null;
  pathParams: string[];
}

type Document = Parameters<typeof createConformanceChecker>[0] & {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
};
interface OperationObject {
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

let document: Document;
let browser: TestBrowser;
const seeds: string[] = [];

async function signInFixture(): Promise<void> {
  const serial = seeds.length;
  const admin = await signIn(t, `fuzz-admin-${serial}`);
  await t.db.collection("users").updateOne({ email: admin.email }, { $set: { role: "admin" } });
  const organizationId = await createOrganization(admin, `fuzz-org-${serial}`);
  const member = await signIn(t, `fuzz-member-${serial}`);
  const invitation = await admin.browser.post<{ id: string }>("/organization/invite-member", {
    email: member.email,
    role: "member",
    organizationId,
  });
  browser = admin.browser;
  seeds.push(
    admin.userId,
    admin.email,
    member.userId,
    member.email,
    organizationId,
    `fuzz-org-${serial}`,
    invitation.body.id,
    "member",
    "admin",
    "owner",
  );
}

function operationsOf(doc: Document): Operation[] {
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const queryParameters = parameters.filter((parameter) => parameter.in === "query");
      return {
        path: template.replace(/^\/api\/auth/, ""),
        method: method.toUpperCase(),
        body: operation.requestBody?.content?.["application/json"]?.schema ?? null,
        query:
          queryParameters.length === 0
            ? null
            : {
                type: "object",
                properties: Object.fromEntries(
                  queryParameters.map((parameter) => [parameter.name, parameter.schema]),
                ),
                required: queryParameters
                  .filter((parameter) => parameter.required)
                  .map((parameter) => parameter.name),
              },
        pathParams: parameters
          .filter((parameter) => parameter.in === "path")
          .map((parameter) => parameter.name),
      };
    }),
  );
}

beforeAll(async () => {
  const response = await new TestBrowser(t.auth).get("/openapi.json");
  document = response.body as Document;
  await signInFixture();
});

/**
 * A hash of the data, as snapshotDatabase, less the sign-in throttle's slots: a refused password
 * sign-in claims one by design, before the password is checked (docs/security.md "Guessing one
 * account's password").
 */
const snapshotData = (db: Db) =>
  snapshotDatabase(db, { verifications: { identifier: { $not: /^sign-in-attempt:/ } } });

/** A query string value as a browser would send it: text. */
function toQuery(value: unknown): string {
  if (!value || typeof value !== "object") return "";
  const params = new URLSearchParams();
  for (const [name, field] of Object.entries(value))
    params.set(name, typeof field === "string" ? field : JSON.stringify(field));
  const text = params.toString();
  return text ? `?${text}` : "";
}

function catalogueProblem(status: number, body: unknown): string | null {
  const { code, message } = (body ?? {}) as { code?: string; message?: string };
  const entry = code ? ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE] : undefined;
  if (!entry) return `no catalogue code in ${JSON.stringify(body).slice(0, 200)}`;
  if (entry.status !== status) return `${code} answered ${status}, catalogue says ${entry.status}`;
  const template = new RegExp(
    `^${entry.message.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, ".*")}$`,
  );
  if (entry.message !== message && !template.test(message ?? ""))
    return `${code} message "${message}", catalogue says "${entry.message}"`;
  return null;
}

describe("fuzzing every endpoint's input through auth.handler", () => {
  it(
    "answers 2xx or a catalogue 4xx, conforms to the document, and a refused input changes nothing",
    async () => {
      const check = createConformanceChecker(document);
      const context = { components: document.components.schemas, seeds: () => seeds };
      const problems: string[] = [];
      const statuses: Record<string, number> = {};
      let requests = 0;
      let refusedChecked = 0;
      let before = await snapshotData(t.db);
      const stopAt = performance.now() + TIME_BUDGET_MS;
      let operationsFuzzed = 0;
      for (const [index, operation] of operationsOf(document).entries()) {
        if (performance.now() > stopAt) break;
        operationsFuzzed++;
        const input = fc.record({
          body: operation.body ? arbitraryFor(operation.body, context) : fc.constant(undefined),
          query: operation.query ? arbitraryFor(operation.query, context) : fc.constant(undefined),
          params: fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom(...seeds)), {
            minLength: operation.pathParams.length,
            maxLength: operation.pathParams.length,
          }),
        });
        for (const sample of fc.sample(input, { numRuns: RUNS_PER_OPERATION, seed: SEED + index })) {
          let path = operation.path;
          operation.pathParams.forEach((name, at) => {
            path = path.replace(`{${name}}`, encodeURIComponent(String(sample.params[at])));
          });
          const url = path + toQuery(sample.query);
          const answer = await browser.request(operation.method, url, {
            ...(sample.body === undefined ? {} : { body: sample.body }),
          });
          requests++;
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          const where = `${operation.method} ${url.slice(0, 120)} ${JSON.stringify(sample.body)?.slice(0, 160)}`;
          const after = await snapshotData(t.db);
          if (answer.status >= 400) {
            const wrong =
              answer.status >= 500 ? "a server error" : catalogueProblem(answer.status, answer.body);
            if (wrong) problems.push(`${where} → ${answer.status}: ${wrong}`);
            refusedChecked++;
            if (after !== before) problems.push(`${where} → ${answer.status} changed the database`);
          }
          const isJson = (answer.headers.get("content-type") ?? "").includes("json");
          for (const violation of check({
            method: operation.method,
            path: operation.path.replace(/\{\w+\}/g, "x"),
            status: answer.status,
            body: isJson ? answer.body : undefined,
          }))
            problems.push(`${where}: ${violation}`);
          before = after;
          // An input that signed the admin out (sign-out, revoke, delete-user): sign in a new one.
          const session = await browser.get("/get-session");
          if (session.status !== 200 || session.body === null) {
            await signInFixture();
            before = await snapshotData(t.db);
          }
        }
      }
      reportScenario("input-fuzz", {
        operations: operationsOf(document).length,
        operationsFuzzed,
        runsPerOperation: RUNS_PER_OPERATION,
        requests,
        byStatus: statuses,
        refusedInputsChecked: refusedChecked,
        problems: problems.length,
        examples: problems.slice(0, 10),
      });
      expect(problems).toEqual([]);
      expect(operationsFuzzed).toBeGreaterThan(0);
    },
    TIME_BUDGET_MS + 10 * 60_000,
  );
});
