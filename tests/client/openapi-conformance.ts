import type { ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * Checks answers against the OpenAPI document: the JSON body of a response must match the schema
 * the document gives for its operation and status. Returns what is wrong (empty when it conforms).
 */
export interface RecordedResponse {
  method: string;
  /** Under the base path, without the query, e.g. `/organization/get-invitation`. */
  path: string;
  status: number;
  body: unknown;
}

interface DocumentShape {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
}

export function createConformanceChecker(document: DocumentShape, basePath = "/api/auth") {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  // The components under their place in the document, so their own `#/components/…` references resolve.
  ajv.addSchema({ $id: "tessera:document", components: document.components });
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(basePath, "").replace(/\{\w+\}/g, "[^/]+")}$`),
  }));
  const compiled = new Map<string, ValidateFunction>();

  return function check(response: RecordedResponse): string[] {
    const template = templates.find((t) => t.regex.test(response.path))?.template;
    if (!template) return [`${response.method} ${response.path}: no operation in the document`];
    const operation = document.paths[template]?.[response.method.toLowerCase()];
    if (!operation) return [`${response.method} ${template}: no such method in the document`];
    const documented = operation.responses[String(response.status)];
    if (!documented) return [`${response.method} ${template}: status ${response.status} is not documented`];
    const schema = documented.content?.["application/json"]?.schema;
    if (!schema) return [];
    const key = `${response.method} ${template} ${response.status}`;
    let validate = compiled.get(key);
    if (!validate) {
      const resolved = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"tessera:document#/components/'),
      );
      validate = ajv.compile(resolved);
      compiled.set(key, validate);
    }
    if (validate(response.body)) return [];
    return [`${key}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(response.body).slice(0, 300)}`];
  };
}
