import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { featureOf, importCycles, reachableFrom, readImportGraph } from "#test/import-graph.ts";

/**
 * The layering of docs/architecture.md ("Feature faces", "Dependencies flow one way"), read from the
 * import statements of packages/auth-core/src. Each rule lists the exceptions still known to break
 * it; a list may only shrink: the test fails on a violation not listed AND on a listed one that no
 * longer occurs (then delete its line).
 */
const SOURCE_ROOT = fileURLToPath(new URL("../../packages/auth-core/src", import.meta.url));
const graph = readImportGraph(SOURCE_ROOT);

/** Every `file -> target` edge of the graph that `breaks` says is a violation. */
function violations(breaks: (file: string, target: string) => boolean): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) if (breaks(file, target)) found.push(`${file} -> ${target}`);
  }
  return found;
}

function expectOnlyKnown(found: readonly string[], known: readonly string[]): void {
  expect({
    newViolations: found.filter((edge) => !known.includes(edge)),
    fixedButStillListed: known.filter((edge) => !found.includes(edge)),
  }).toEqual({ newViolations: [], fixedButStillListed: [] });
}

/** Layers below the features: they are handed what they need (create-auth.ts), never import it. */
const BELOW_FEATURES = ["http/", "crypto/", "errors/", "db/", "mail/", "config/", "contracts/", "openapi/"];

/** What a shared file directly in features/ may import of a feature: its face, or (registry.ts, generated) its handlers. */
function isFaceOrEndpointList(file: string, target: string, feature: string): boolean {
  if (target === `features/${feature}/index.ts`) return true;
  return (
    file === "features/registry.ts" &&
    target.startsWith(`features/${feature}/`) &&
    /\/endpoints\/[^/]+\.ts$/.test(target)
  );
}

/**
 * Service files that still throw (or catch) catalogue errors below their endpoints. Converting a
 * feature means: "not found" answers null, a refused transition answers Refused (errors/refusal.ts),
 * and the endpoint (or its feature's endpoints/guards.ts) turns it into the catalogue error.
 */
const KNOWN_THROWING_SERVICES = [
  // http/ calls its caller resolvers mid-pipeline: a refused key or caller must refuse the request.
  "features/api-key/session-bridge.ts",
  // createSession wraps a failed session insert with its cause (FAILED_TO_CREATE_SESSION, logged; an outage answers 503).
  "features/session/service.ts",
  // Redirects with unable_to_create_session when the session pipeline throws (a session or challenge that could not be stored).
  "features/social/callback-flow.ts",
  // createChallenge, a step of the session pipeline: a colliding challenge id (a failed write, not a refusal) is FAILED_TO_CREATE_SESSION.
  "features/two-factor/challenge.ts",
  // storeCredentialAccount wraps a failed account insert with its cause (UNABLE_TO_CREATE_ACCOUNT; an outage answers 503).
  "features/users/service.ts",
];

/** Every import statement of a file: its target (as in the graph) and whether it is `import type`. */
function importStatements(file: string): { target: string; typeOnly: boolean }[] {
  const text = readFileSync(join(SOURCE_ROOT, file), "utf8");
  const found: { target: string; typeOnly: boolean }[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?\s[^;]*?\sfrom\s+"([^"]+)"/g)) {
    const specifier = match[3]!;
    const target = specifier.startsWith(".") ? join(file, "..", specifier) : specifier;
    found.push({ target, typeOnly: match[2] !== undefined });
  }
  return found;
}

/** `@tessera/auth-core/roles`: pure and browser-safe; the client's checkRolePermission decides with it. */
const ROLE_RULES = ["features/organization/members/rules.ts", "contracts/role-list.ts"];

/**
 * The browser client and the React hooks (docs/client.md): values only from their own folders (and
 * React), types only from contracts/, errors/ and zod — so a browser bundle carries no server code,
 * no zod and nothing of node:*. tests/client/bundle.test.ts checks the bundle itself.
 */
function clientImportViolations(): string[] {
  const found: string[] = [];
  for (const file of graph.keys()) {
    const folder = file.split("/")[0];
    if (folder !== "client" && folder !== "react") continue;
    for (const { target, typeOnly } of importStatements(file)) {
      const ownValue =
        target.startsWith("client/") ||
        ROLE_RULES.includes(target) ||
        (folder === "react" && (target.startsWith("react/") || target === "react"));
      const allowedType = typeOnly && (/^(contracts|errors)\//.test(target) || target === "zod");
      if (!ownValue && !allowedType) found.push(`${file} -> ${target}${typeOnly ? " (type)" : ""}`);
    }
  }
  return found;
}

/**
 * docs/architecture.md "One owner per collection": each collection is named (`collections.<x>`,
 * `COLLECTION_NAMES.<x>`, or taken out of `collections` by destructuring) in one module, its owner,
 * whose write functions also do what must follow a write (listing bumps, the timeline entry, the
 * address claim). db/collections.ts declares them all; a numbered migration may name any collection
 * to create or drop its indexes, and documents only as FROZEN_DATA_MIGRATIONS lists.
 */
const COLLECTION_OWNERS: Record<string, string> = {
  users: "features/users/store.ts",
  emailClaims: "features/users/claims-store.ts",
  userTimeline: "features/users/timeline-store.ts",
  accounts: "db/accounts.ts",
  verifications: "db/verifications.ts",
  sessions: "features/session/store.ts",
  rateLimits: "http/rate-limit.ts",
  mailLimits: "features/mail-limit/store.ts",
  mails: "features/mail-outbox/store.ts",
  mailClaims: "features/mail-outbox/store.ts",
  migrations: "db/migrations/index.ts",
  apiKeys: "features/api-key/store.ts",
  apiKeyUses: "features/api-key/store.ts",
  twoFactors: "features/two-factor/store.ts",
  auditEvents: "features/admin/store.ts",
  pendingDeletions: "features/pending-deletions/store.ts",
  organizations: "features/organization/organizations/store.ts",
  members: "features/organization/members/store.ts",
  invitations: "features/organization/invitations/store.ts",
  teams: "features/organization/teams/store.ts",
  teamMembers: "features/organization/teams/store.ts",
  listingVersions: "db/listing-version.ts",
  passkeys: "features/passkey/store.ts",
  samlReplays: "features/sso/saml/replay-store.ts",
  events: "features/events/store.ts",
};

/**
 * The migrations that read or write a collection's documents themselves (`<collection> in <file>`),
 * as they shipped: a migration keeps doing what it did then (docs/architecture.md). A new data
 * migration is handed its owner's function instead (db/migrations/types.ts MigrationSteps).
 */
const FROZEN_DATA_MIGRATIONS = [
  // Rewrites the plain reset and delete-account identifiers as hashes.
  "verifications in db/migrations/0007-hash-stored-tokens.ts",
  // Claims every user's address, and moves sessions, accounts and verifications to their keyed _id.
  "accounts in db/migrations/0009-keyed-lookups.ts",
  "emailClaims in db/migrations/0009-keyed-lookups.ts",
  "sessions in db/migrations/0009-keyed-lookups.ts",
  "users in db/migrations/0009-keyed-lookups.ts",
  "verifications in db/migrations/0009-keyed-lookups.ts",
];

const NUMBERED_MIGRATION = /^db\/migrations\/\d{4}-[\w-]+\.ts$/;

/**
 * The collections a numbered migration names for anything but `<collection>.createIndex(` or
 * `.dropIndex(` (comments aside, and the names `up` takes out of `collections`).
 */
function collectionsOfMigration(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "").replace(/\bup\(\{[^}]*\}/g, "up(");
  return Object.keys(COLLECTION_OWNERS).filter((name) =>
    new RegExp(`\\b${name}\\b(?!\\.(?:createIndex|dropIndex)\\()`).test(code),
  );
}

/** Every `<collection> in <file>` of a file naming a collection it does not own. */
function collectionsNamedOutsideOwners(): string[] {
  const found = new Set<string>();
  for (const file of graph.keys()) {
    if (file === "db/collections.ts") continue;
    const text = readFileSync(join(SOURCE_ROOT, file), "utf8");
    if (NUMBERED_MIGRATION.test(file)) {
      for (const name of collectionsOfMigration(text)) found.add(`${name} in ${file}`);
      continue;
    }
    for (const name of collectionsNamedIn(text))
      if (COLLECTION_OWNERS[name] !== file) found.add(`${name} in ${file}`);
  }
  return [...found].sort();
}

/** The collections a module names: `collections.<x>`, `COLLECTION_NAMES.<x>`, or `{ x } = …collections`. */
function collectionsNamedIn(text: string): string[] {
  const named = [
    ...[...text.matchAll(/\b(?:collections\??|COLLECTION_NAMES)\.(\w+)/g)].map((match) => match[1]!),
    ...[...text.matchAll(/\{([^{}]*)\}\s*=\s*(?:[\w.]+\.)?collections\b/g)].flatMap((match) =>
      match[1]!.split(",").map((part) => part.split(":")[0]!.trim()),
    ),
  ];
  return named.filter((name) => Object.hasOwn(COLLECTION_OWNERS, name));
}

/** The shells over the core: the CLI, the demo and the created app's template (tests aside). */
const SHELL_ROOTS = ["packages/cli/src", "apps/remix-demo/app", "templates"];

/** Every `<collection> in <file>` of the shells: they reach data through the owners, never by name. */
function collectionsNamedInShells(): string[] {
  const repository = fileURLToPath(new URL("../..", import.meta.url));
  return SHELL_ROOTS.flatMap((root) =>
    readdirSync(join(repository, root), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .flatMap((file) =>
        collectionsNamedIn(readFileSync(join(repository, root, file), "utf8")).map(
          (name) => `${name} in ${root}/${file}`,
        ),
      ),
  );
}

describe("layering of packages/auth-core/src", () => {
  it("reads the sources (a guard against a wrong root)", () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.has("create-auth.ts")).toBe(true);
  });

  it("has no import cycle", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("http/, crypto/, errors/, db/, mail/, config/ and contracts/ import no feature", () => {
    const found = violations(
      (file, target) =>
        BELOW_FEATURES.some((layer) => file.startsWith(layer)) && target.startsWith("features/"),
    );
    expectOnlyKnown(found, []);
  });

  it("a feature uses another only through that feature's index.ts (its face)", () => {
    const found = violations((file, target) => {
      const from = featureOf(file);
      const to = featureOf(target);
      if (to === null) return false;
      // The shared files directly in features/ (hooks, mail-dispatch, cleanup…) use faces too.
      if (from === null) return file.startsWith("features/") && !isFaceOrEndpointList(file, target, to);
      return from !== to && target !== `features/${to}/index.ts`;
    });
    expectOnlyKnown(found, []);
  });

  it("no two features import each other", () => {
    const pairs = new Set<string>();
    for (const [file, targets] of graph)
      for (const target of targets) {
        const from = featureOf(file);
        const to = featureOf(target);
        if (from !== null && to !== null && from !== to) pairs.add(`${from} -> ${to}`);
      }
    const mutual = [...pairs].filter((pair) => {
      const [from, to] = pair.split(" -> ");
      return from! < to! && pairs.has(`${to} -> ${from}`);
    });
    expect(pairs.size).toBeGreaterThan(10);
    expect(mutual).toEqual([]);
  });

  it("endpoints call services: no endpoint imports a store.ts (types aside)", () => {
    const found: string[] = [];
    const endpointFiles = [...graph.keys()].filter(
      (file) => file.startsWith("features/") && file.includes("/endpoints/"),
    );
    // A guard against reading nothing: there are about a hundred endpoint files.
    expect(endpointFiles.length).toBeGreaterThan(80);
    for (const file of endpointFiles) {
      for (const { target, typeOnly } of importStatements(file))
        if (target.endsWith("/store.ts") && !typeOnly) found.push(`${file} -> ${target}`);
    }
    expect(found).toEqual([]);
  });

  it("no feature imports another feature's store.ts", () => {
    const found = violations((file, target) => {
      const to = featureOf(target);
      return to !== null && target.endsWith("/store.ts") && featureOf(file) !== to;
    });
    expectOnlyKnown(found, []);
  });

  it("client/ and react/ import values only from themselves (and React), types only from contracts/, errors/ and zod", () => {
    expect([...graph.keys()].filter((file) => file.startsWith("client/")).length).toBeGreaterThan(3);
    expectOnlyKnown(clientImportViolations(), []);
  });

  it("i18n/ (@tessera/auth-core/i18n) reaches only its own data and the error catalogue, so a browser can bundle it", () => {
    const reached = [...reachableFrom(graph, "i18n/index.ts")];
    expect(
      reached.filter((module) => !module.startsWith("i18n/") && module !== "errors/catalogue.ts"),
    ).toEqual([]);
  });

  it("roles.ts (@tessera/auth-core/roles) reaches only the pure role rules and the role-list parser, so a browser can bundle it", () => {
    expect([...reachableFrom(graph, "roles.ts")].sort()).toEqual([
      "contracts/role-list.ts",
      "features/organization/members/rules.ts",
      "roles.ts",
    ]);
  });

  it("a collection is named (collections.<x>) only in its owner; a migration names others' only for their indexes", () => {
    // A guard against a wrong reading: every owner names its collections.
    for (const [name, owner] of Object.entries(COLLECTION_OWNERS)) {
      const text = readFileSync(join(SOURCE_ROOT, owner), "utf8");
      expect(text, `${name} in ${owner}`).toMatch(new RegExp(`\\b${name}\\b`));
    }
    expectOnlyKnown(collectionsNamedOutsideOwners(), FROZEN_DATA_MIGRATIONS);
  });

  it("the CLI, the demo and the created app's template name no collection: they go through the core's owners or auth.api", () => {
    expect(collectionsNamedInShells()).toEqual([]);
  });

  it('only db/ and */store.ts import "mongodb"', () => {
    const found = violations(
      (file, target) => target === "mongodb" && !file.startsWith("db/") && !file.endsWith("/store.ts"),
    );
    expectOnlyKnown(found, []);
  });

  it("below a feature's endpoints, a refusal is a value: only endpoints (and their guards) throw catalogue errors", () => {
    const found = violations(
      (file, target) =>
        target === "errors/auth-error.ts" &&
        file.startsWith("features/") &&
        !file.includes("/endpoints/") &&
        !file.endsWith(".test.ts"),
    ).map((edge) => edge.split(" -> ")[0] ?? edge);
    // The files still to convert; organization and every file not listed answer null or a refusal
    // value (errors/refusal.ts).
    expectOnlyKnown(found, KNOWN_THROWING_SERVICES);
  });
});
