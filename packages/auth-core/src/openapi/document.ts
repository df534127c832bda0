import type { AnyContract, EndpointAuth, HttpMethod } from "../contracts/contract.ts";
import type { ErrorCode } from "../errors/catalogue.ts";
import { type JsonSchema, toJsonSchema } from "./json-schema.ts";
import { createModels, JSON_VALUE_SCHEMA, type Models } from "./models.ts";
import { errorResponses, errorSchema, successResponses } from "./responses.ts";
import { TAG_DESCRIPTIONS } from "./tags.ts";
import { EVENTS_TAG, webhookOperations } from "./webhooks.ts";

/**
 * The OpenAPI 3.1 document of the API, generated from the endpoint contracts (docs/client.md
 * "OpenAPI"): one operation per contract and method, its inputs, its response, every catalogue
 * error it may answer (with code and message), the credentials HTTP requires and its feature tags.
 * Models are named components (openapi/models.ts). Server-only endpoints are not part of the HTTP
 * API and are left out.
 */
export interface OpenApiDocumentOptions {
  contracts: readonly AnyContract[];
  /**
   * Codes the served endpoint answers besides its contract's, from how it is served: the catalogue
   * code a field's validation failure maps to, the refusal of an impersonation session.
   */
  extraErrors?(contract: AnyContract): readonly ErrorCode[];
  /** e.g. `/api/auth`. */
  basePath: string;
  /** The server's origin, e.g. `https://auth.example.com`. */
  origin: string;
  /** The session cookie's name (it depends on the cookie prefix and on https). */
  sessionCookie: string;
  /** The header that carries an API key. */
  apiKeyHeader: string;
  /** Whether an API key stands for a session on this endpoint (`apiKey.enableSessionForAPIKeys`, not sensitive). */
  acceptsApiKey?(contract: AnyContract): boolean;
  /** The cookie of a sign-in waiting for its second factor (features/two-factor/cookies.ts). */
  twoFactorCookie: string;
  /** The cookie of an opened SSO setup link (features/sso/setup-link.ts). @default the two-factor cookie's prefix + "sso_setup" */
  ssoSetupCookie?: string;
  title: string;
}

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, Record<string, unknown>>;
}

interface Parameter {
  name: string;
  in: "query" | "path";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

/** Errors the engine itself may answer on any route (http/handler.ts), besides each contract's own. */
const ENGINE_ERRORS: readonly ErrorCode[] = [
  "VALIDATION_ERROR",
  "TOO_MANY_REQUESTS",
  "INTERNAL_SERVER_ERROR",
  "SERVICE_UNAVAILABLE",
];
const BODY_ERRORS: readonly ErrorCode[] = [
  "INVALID_JSON",
  "UNSUPPORTED_CONTENT_TYPE",
  "BODY_TOO_LARGE",
  "INVALID_ORIGIN",
];
const AUTH_ERRORS: Record<EndpointAuth, readonly ErrorCode[]> = {
  none: [],
  optional: [],
  session: ["UNAUTHORIZED"],
  "fresh-session": ["UNAUTHORIZED", "SESSION_NOT_FRESH"],
  "server-only": [],
};

/**
 * Every code an operation may answer: the engine's, its auth level's, its contract's and the extra
 * ones of how it is served. The document lists these, and `advanced.checkResponses` refuses any
 * other (http/run-endpoint.ts), so the document cannot fall behind the endpoints.
 */
export function operationErrorCodes(
  contract: AnyContract,
  method: HttpMethod,
  extraErrors: readonly ErrorCode[],
): ErrorCode[] {
  const errors = [...ENGINE_ERRORS, ...AUTH_ERRORS[contract.auth], ...contract.errors, ...extraErrors];
  if (method === "POST") errors.push(...BODY_ERRORS);
  return errors;
}

type Security = Record<string, string[]>[];

/**
 * What HTTP requires (any one entry will do): the contract's `httpCredentials`, else a session for
 * session and fresh-session endpoints; a session is its cookie or, where keys stand for sessions, an
 * API key. Optional endpoints read a session when there is one (`{}` first: none needed); the
 * others are anonymous (`[]`).
 */
function securityOf(contract: AnyContract, acceptsApiKey: boolean): Security {
  const session: Security = [{ sessionCookie: [] }, ...(acceptsApiKey ? [{ apiKey: [] }] : [])];
  const required =
    contract.httpCredentials ??
    (contract.auth === "session" || contract.auth === "fresh-session" ? ["session"] : []);
  const security = required.flatMap((credential) => {
    if (credential === "session") return session;
    if (credential === "sso-setup") return [{ ssoSetup: [] }];
    return [credential === "session-cookie" ? { sessionCookie: [] } : { twoFactorChallenge: [] }];
  });
  if (security.length > 0) return security;
  return contract.auth === "optional" ? [{}, ...session] : [];
}

/**
 * zod writes a recursive schema (a JSON value) with `$defs` and `#/$defs/…` references, which inside
 * an OpenAPI document would resolve against the document's root: they are moved to
 * components/schemas under a name prefixed by the operation, and the references rewritten.
 */
type SchemaOf = (schema: NonNullable<AnyContract["body"]>, io: "input" | "output") => JsonSchema;

/** The named components and where they are shared across operations. */
interface Components {
  schemas: Record<string, JsonSchema>;
  models: Models;
}

/**
 * zod writes named models and recursive schemas into `$defs` with `#/$defs/…` references, which
 * inside an OpenAPI document would resolve against the document's root: they move to
 * components/schemas — a model under its own name, anything else under a name prefixed by the
 * operation — and the references are rewritten.
 */
function schemaCollector(components: Components, prefix: string): SchemaOf {
  return (schema, io) => {
    const json = toJsonSchema(schema, io, components.models.registry);
    const defs = json.$defs as Record<string, JsonSchema> | undefined;
    if (!defs) return json;
    delete json.$defs;
    const local = `${prefix}_${io}_`;
    const nameOf = (def: string) => (components.models.names.has(def) ? def : local + def);
    const rewritten = JSON.stringify({ json, defs }).replace(
      /"#\/\$defs\/([^"]+)"/g,
      (_, def: string) => `"#/components/schemas/${nameOf(def)}"`,
    );
    const moved = JSON.parse(rewritten) as { json: JsonSchema; defs: Record<string, JsonSchema> };
    for (const [def, body] of Object.entries(moved.defs)) addComponent(components, nameOf(def), body);
    return moved.json;
  };
}

/** A model has one definition: the same name written differently (input and output) is a bug here. */
function addComponent(components: Components, name: string, body: JsonSchema): void {
  const definition = name === "JsonValue" ? JSON_VALUE_SCHEMA : body;
  const existing = components.schemas[name];
  if (existing && JSON.stringify(existing) !== JSON.stringify(definition))
    throw new Error(`openapi: model ${name} has two different definitions`);
  components.schemas[name] = definition;
}

function parametersOf(contract: AnyContract, schemaOf: SchemaOf): Parameter[] {
  const parameters: Parameter[] = [];
  for (const match of contract.path.matchAll(/:(\w+)/g))
    parameters.push({ name: match[1]!, in: "path", required: true, schema: { type: "string" } });
  if (contract.query) {
    const query = schemaOf(contract.query, "input");
    const properties = (query.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((query.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(properties))
      parameters.push({ name, in: "query", required: required.has(name), schema });
  }
  return parameters;
}

function operationOf(
  contract: AnyContract,
  method: HttpMethod,
  operationId: string,
  components: Components,
  options: OpenApiDocumentOptions,
): Operation {
  const schemaOf = schemaCollector(components, operationId);
  const errors = operationErrorCodes(contract, method, options.extraErrors?.(contract) ?? []);
  const operation: Operation = {
    operationId,
    summary: contract.summary,
    tags: [...contract.tags],
    security: securityOf(contract, options.acceptsApiKey?.(contract) ?? false),
    responses: {
      ...successResponses(contract, () => schemaOf(contract.response, "output")),
      ...errorResponses(errors),
    },
  };
  const parameters = parametersOf(contract, schemaOf);
  if (parameters.length > 0) operation.parameters = parameters;
  if (method === "POST" && contract.body)
    operation.requestBody = {
      required: true,
      content: { "application/json": { schema: schemaOf(contract.body, "input") } },
    };
  return operation;
}

/** The schemes the operations name, and only those (an unused one is noise to a gateway). */
function securitySchemesOf(paths: OpenApiDocument["paths"], options: OpenApiDocumentOptions) {
  const all: Record<string, Record<string, string>> = {
    sessionCookie: { type: "apiKey", in: "cookie", name: options.sessionCookie },
    apiKey: { type: "apiKey", in: "header", name: options.apiKeyHeader },
    twoFactorChallenge: { type: "apiKey", in: "cookie", name: options.twoFactorCookie },
    ssoSetup: {
      type: "apiKey",
      in: "cookie",
      name: options.ssoSetupCookie ?? options.twoFactorCookie.replace(/two_factor$/, "sso_setup"),
    },
  };
  const used = new Set(
    Object.values(paths).flatMap((methods) =>
      Object.values(methods).flatMap((operation) => operation.security.flatMap(Object.keys)),
    ),
  );
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}

/** The package's licence (packages/auth-core/package.json; a test keeps the two equal). */
const LICENSE = { name: "MIT", identifier: "MIT" };

export function createOpenApiDocument(options: OpenApiDocumentOptions): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  const tags = new Set<string>();
  const components: Components = { schemas: {}, models: createModels() };
  for (const contract of options.contracts) {
    if (contract.auth === "server-only") continue;
    const path = options.basePath + contract.path.replace(/:(\w+)/g, "{$1}");
    const methods: readonly HttpMethod[] =
      typeof contract.method === "string" ? [contract.method] : contract.method;
    methods.forEach((method, index) => {
      const operationId =
        index === 0 ? contract.name : `${contract.name}${method[0]}${method.slice(1).toLowerCase()}`;
      paths[path] ??= {};
      paths[path][method.toLowerCase()] = operationOf(contract, method, operationId, components, options);
    });
    for (const tag of contract.tags) tags.add(tag);
  }
  // The events a receiver is sent (contracts/events.ts), with their own tag.
  const webhooks = webhookOperations((name, schema) => schemaCollector(components, name)(schema, "output"));
  tags.add(EVENTS_TAG);
  return {
    openapi: "3.1.0",
    info: {
      title: options.title,
      version: "1.0.0",
      description:
        "Generated from the endpoint contracts. Errors are JSON { code, message } with the status of the error catalogue.",
      license: LICENSE,
    },
    servers: [{ url: options.origin }],
    tags: [...tags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    webhooks,
    components: {
      schemas: { ...sortedByName(components.schemas), Error: errorSchema() },
      securitySchemes: securitySchemesOf(paths, options),
    },
  };
}

function sortedByName(schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}
