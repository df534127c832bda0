export {
  createOpenApiDocument,
  type OpenApiDocument,
  type OpenApiDocumentOptions,
  operationErrorCodes,
} from "./document.ts";
export { renderReferencePage } from "./reference-page.ts";
