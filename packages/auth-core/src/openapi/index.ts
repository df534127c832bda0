export { createOpenApiDocument, type OpenApiDocument, type OpenApiDocumentOptions } from "./document.ts";
export { renderReferencePage } from "./reference-page.ts";
