export {
  createOpenApiDocument,
  type OpenApiDocument,
  type OpenApiDocumentOptions,
  operationErrorCodes,
} from "./document.ts";
export { type ContentCoding, createEncodedBody, negotiateContentCoding } from "./encodings.ts";
export { REFERENCE_PAGE_CSP, renderReferencePage } from "./reference-page.ts";
