import type { AnyContract, EndpointAuth, HttpMethod } from "../contracts/contract.ts";
import { ERROR_CATALOGUE, type ErrorCode } from "../errors/catalogue.ts";
import { type JsonSchema, toJsonSchema } from "./json-schema.ts";

/**
 * The OpenAPI 3.1 document of the API, generated from the endpoint contracts (docs/client.md
 * "OpenAPI"): one operation per contract and method, its inputs, its response, every catalogue
 * error it may answer (with code and message), its auth requirement and its feature tags.
 * Server-only endpoints are not part of the HTTP API and are left out.
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
  title: string;
}

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };

export interface Operation {
  operationId: string;
  summary: string;
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

/** Who may call: a session cookie or (where the app turns keys into sessions) an API key. */
function securityOf(auth: EndpointAuth): Record<string, string[]>[] {
  if (auth === "session" || auth === "fresh-session") return [{ sessionCookie: [] }, { apiKey: [] }];
  if (auth === "optional") return [{}, { sessionCookie: [] }, { apiKey: [] }];
  return [];
}

/**
 * zod writes a recursive schema (a JSON value) with `$defs` and `#/$defs/…` references, which inside
 * an OpenAPI document would resolve against the document's root: they are moved to
 * components/schemas under a name prefixed by the operation, and the references rewritten.
 */
type SchemaOf = (schema: NonNullable<AnyContract["body"]>, io: "input" | "output") => JsonSchema;

function schemaCollector(shared: Record<string, JsonSchema>, prefix: string): SchemaOf {
  return (schema, io) => {
    const json = toJsonSchema(schema, io);
    const defs = json.$defs as Record<string, JsonSchema> | undefined;
    if (!defs) return json;
    delete json.$defs;
    const local = `${prefix}_${io}_`;
    const rewritten = JSON.stringify({ json, defs }).replace(
      /"#\/\$defs\/([^"]+)"/g,
      `"#/components/schemas/${local}$1"`,
    );
    const moved = JSON.parse(rewritten) as { json: JsonSchema; defs: Record<string, JsonSchema> };
    for (const [name, def] of Object.entries(moved.defs)) shared[local + name] = def;
    return moved.json;
  };
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

/** The errors of one operation grouped by status: the shared error schema with one example per code. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, Record<string, unknown>> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = ERROR_CATALOGUE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Record<string, unknown>> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples = Object.fromEntries(
      list.map((code) => [code, { value: { code, message: ERROR_CATALOGUE[code].message } }]),
    );
    responses[String(status)] = {
      description: list.join(", "),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, examples } },
    };
  }
  return responses;
}

function successResponses(
  contract: AnyContract,
  schemaOf: SchemaOf,
): Record<string, Record<string, unknown>> {
  const answers = contract.answers ?? "json";
  if (answers === "html")
    return {
      "200": { description: "An HTML page.", content: { "text/html": { schema: { type: "string" } } } },
    };
  const responses: Record<string, Record<string, unknown>> = {
    "200": {
      description: "Success.",
      content: { "application/json": { schema: schemaOf(contract.response, "output") } },
    },
  };
  if (answers === "json-or-redirect")
    responses["302"] = {
      description: "A redirect to the URL the caller gave (or the provider's page).",
      headers: { Location: { schema: { type: "string" } } },
    };
  return responses;
}

function operationOf(
  contract: AnyContract,
  method: HttpMethod,
  operationId: string,
  shared: Record<string, JsonSchema>,
  extraErrors: readonly ErrorCode[],
): Operation {
  const schemaOf = schemaCollector(shared, operationId);
  const errors = operationErrorCodes(contract, method, extraErrors);
  const operation: Operation = {
    operationId,
    summary: contract.summary,
    tags: [...contract.tags],
    security: securityOf(contract.auth),
    responses: { ...successResponses(contract, schemaOf), ...errorResponses(errors) },
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

export function createOpenApiDocument(options: OpenApiDocumentOptions): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  const tags = new Set<string>();
  const shared: Record<string, JsonSchema> = {};
  for (const contract of options.contracts) {
    if (contract.auth === "server-only") continue;
    const path = options.basePath + contract.path.replace(/:(\w+)/g, "{$1}");
    const methods: readonly HttpMethod[] =
      typeof contract.method === "string" ? [contract.method] : contract.method;
    methods.forEach((method, index) => {
      const operationId =
        index === 0 ? contract.name : `${contract.name}${method[0]}${method.slice(1).toLowerCase()}`;
      paths[path] ??= {};
      paths[path][method.toLowerCase()] = operationOf(
        contract,
        method,
        operationId,
        shared,
        options.extraErrors?.(contract) ?? [],
      );
    });
    for (const tag of contract.tags) tags.add(tag);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: options.title,
      version: "1.0.0",
      description:
        "Generated from the endpoint contracts. Errors are JSON { code, message } with the status of the error catalogue.",
    },
    servers: [{ url: options.origin }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        ...shared,
        Error: {
          type: "object",
          required: ["code", "message"],
          properties: { code: { type: "string" }, message: { type: "string" } },
          additionalProperties: true,
        },
      },
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: options.sessionCookie },
        apiKey: { type: "apiKey", in: "header", name: options.apiKeyHeader },
      },
    },
  };
}
