import { readFileSync } from "node:fs";
import { type Auth, PROVIDER_IDS } from "@tessera/auth-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAuth, TEST_ORIGIN, type TestAuth } from "#test/test-auth.ts";
import { optionsSchema } from "../../packages/auth-core/src/config/options.ts";
import { providerOptionsSchema } from "../../packages/auth-core/src/features/social/providers/types.ts";

/**
 * The README's reference is a contract with the developers who read it: these tests fail when the
 * endpoint list or the options tables drift from the code (an endpoint or option added, renamed or
 * removed without the README following).
 */
const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The text of the `## <title>` section (up to the next `## ` heading). */
function readSection(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no "## ${title}" section`);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

interface EndpointRow {
  method: string;
  path: string;
  apiName: string;
  caller: string;
}

/** How the README's Caller column names each `auth` mode of defineEndpoint. */
const CALLER_LABELS: Record<Auth["endpoints"][number]["auth"], string> = {
  none: "—",
  optional: "optional session",
  session: "session",
  "fresh-session": "fresh session",
  "server-only": "server only",
};

/** Table rows of the endpoint section: `| GET | `/path` | `apiName` | caller | notes |`. */
function readReadmeEndpoints(): EndpointRow[] {
  const rows: EndpointRow[] = [];
  for (const line of readSection("Endpoints (under `/api/auth`)").split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const [, method, path, apiName, caller] = cells;
    if (!method || !/^(GET|POST)(, (GET|POST))*$/.test(method)) continue;
    rows.push({
      method,
      path: (path ?? "").replaceAll("`", ""),
      apiName: (apiName ?? "").replaceAll("`", ""),
      caller: (caller ?? "").replaceAll("*", ""),
    });
  }
  return rows;
}

function describeCodeEndpoints(auth: Auth): EndpointRow[] {
  return auth.endpoints.map((endpoint) => ({
    method: typeof endpoint.method === "string" ? endpoint.method : endpoint.method.join(", "),
    // docs/decisions.md writes path parameters as {token}; the router's form is :token.
    path: endpoint.path.replace(/:(\w+)/g, "{$1}"),
    apiName: endpoint.name,
    caller: CALLER_LABELS[endpoint.auth],
  }));
}

const routeOf = (row: EndpointRow) => `${row.method} ${row.path}`;

let t: TestAuth;
beforeAll(async () => {
  t = await createTestAuth();
});
afterAll(async () => {
  await t?.close();
});

describe("README endpoint list", () => {
  it("lists every registered endpoint and none that does not exist", () => {
    const documented = readReadmeEndpoints().map(routeOf);
    const registered = describeCodeEndpoints(t.auth).map(routeOf);
    expect(registered.length).toBeGreaterThan(80);
    expect(registered.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !registered.includes(route))).toEqual([]);
  });

  it("lists each endpoint once", () => {
    const documented = readReadmeEndpoints().map(routeOf);
    expect(documented.filter((route, index) => documented.indexOf(route) !== index)).toEqual([]);
  });

  it("gives each endpoint its auth.api name and who may call it (server-only ones marked)", () => {
    const byRoute = (rows: EndpointRow[]) => [...rows].sort((a, b) => routeOf(a).localeCompare(routeOf(b)));
    expect(byRoute(readReadmeEndpoints())).toEqual(byRoute(describeCodeEndpoints(t.auth)));
  });

  it("server-only endpoints do not exist over HTTP, as the README says (404)", async () => {
    const serverOnly = readReadmeEndpoints().filter((entry) => entry.caller === "server only");
    expect(serverOnly.map((row) => row.path)).toContain("/set-password");
    for (const row of serverOnly) {
      const response = await t.auth.handler(
        new Request(`${TEST_ORIGIN}/api/auth${row.path}`, {
          method: row.method,
          headers: { "content-type": "application/json", origin: TEST_ORIGIN },
          ...(row.method === "GET" ? {} : { body: "{}" }),
        }),
      );
      expect(response.status, row.path).toBe(404);
    }
  });
});

/** What these tests read of a zod schema (its definition), without depending on zod here. */
interface SchemaNode {
  _zod: {
    def: {
      type: string;
      innerType?: SchemaNode;
      in?: SchemaNode;
      element?: SchemaNode;
      shape?: Record<string, SchemaNode>;
    };
  };
}

/** Through optional/default/prefault/nullable wrappers and transforms (a pipe's input) to the shape. */
function unwrap(schema: SchemaNode): SchemaNode {
  let current = schema;
  for (
    let next = current._zod.def.innerType ?? current._zod.def.in;
    next;
    next = current._zod.def.innerType ?? current._zod.def.in
  )
    current = next;
  return current;
}

const shapeOf = (schema: unknown): Record<string, SchemaNode> =>
  unwrap(schema as SchemaNode)._zod.def.shape ?? {};

/**
 * Option paths as the README writes them: `session.cookieCache.maxAge`; a built-in provider's
 * options once as `socialProviders.<id>.clientId`; a generic provider's own ones as
 * `genericOAuth[].providerId` (it shares the others with the built-in providers).
 */
function listOptionPaths(): string[] {
  const providerKeys = Object.keys(shapeOf(providerOptionsSchema));
  const paths: string[] = [];
  for (const [key, schema] of Object.entries(shapeOf(optionsSchema))) {
    if (key === "socialProviders") {
      paths.push(key, ...providerKeys.map((name) => `socialProviders.<id>.${name}`));
    } else if (key === "genericOAuth") {
      const element = unwrap(schema)._zod.def.element;
      const ownKeys = Object.keys(shapeOf(element)).filter((name) => !providerKeys.includes(name));
      paths.push(key, ...ownKeys.map((name) => `genericOAuth[].${name}`));
    } else {
      const nested = listNestedPaths(key, schema);
      paths.push(...(nested.length > 0 ? nested : [key]));
    }
  }
  return paths;
}

/** Leaves below an option group (`account.accountLinking.enabled`); [] for a leaf. */
function listNestedPaths(prefix: string, schema: SchemaNode): string[] {
  if (unwrap(schema)._zod.def.type !== "object") return [];
  return Object.entries(shapeOf(schema)).flatMap(([key, child]) => {
    const nested = listNestedPaths(`${prefix}.${key}`, child);
    return nested.length > 0 ? nested : [`${prefix}.${key}`];
  });
}

describe("README createAuth options tables", () => {
  const section = readSection("Configuration");
  const documented = new Set([...section.matchAll(/`([A-Za-z<>[\].]+)`/g)].map((match) => match[1]));

  it("document every option of the options schema", () => {
    const paths = listOptionPaths();
    expect(paths).toContain("advanced.providerTimeoutMs");
    expect(paths).toContain("account.accountLinking.allowUnlinkingAll");
    expect(paths).toContain("organization.teams.maximumTeams");
    expect(paths).toContain("apiKey.keyExpiration.maxExpiresIn");
    expect(paths.filter((path) => !documented.has(path))).toEqual([]);
  });

  it("document no option the schema does not have", () => {
    const paths = new Set(listOptionPaths());
    const rows = section.split("\n").filter((line) => /^\| `[a-z]/.test(line));
    const named = rows.flatMap((line) =>
      [...(line.split("|")[1] ?? "").matchAll(/`([A-Za-z<>[\].]+)`/g)].map((match) => match[1]),
    );
    expect(named.length).toBeGreaterThan(100);
    // Environment variables (UPPER_CASE) have their own table.
    expect(named.filter((name) => !paths.has(name!) && !/^[A-Z_]+$/.test(name!))).toEqual([]);
  });
});

describe("README social providers", () => {
  it("names exactly the built-in provider ids, and the callback URL pattern the code uses", async () => {
    const section = readSection("Social providers");
    const idsParagraph = section.slice(section.indexOf("Built-in ids"), section.indexOf("(exported as"));
    const ids = [...idsParagraph.matchAll(/`([a-z]+)`/g)].map((match) => match[1]);
    expect(ids).toEqual([...PROVIDER_IDS]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the README's literal text, not a template
    expect(section).toContain("`${baseURL}/api/auth/callback/<id>`");

    const local = await createTestAuth({
      socialProviders: { github: { clientId: "client-1", clientSecret: "s" } },
    });
    try {
      const { data } = await local.auth.api.signInSocial({ body: { provider: "github", callbackURL: "/" } });
      const url = new URL((data as { url: string }).url);
      expect(url.searchParams.get("redirect_uri")).toBe(`${TEST_ORIGIN}/api/auth/callback/github`);
    } finally {
      await local.close();
    }
  });
});
