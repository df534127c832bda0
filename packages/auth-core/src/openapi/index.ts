export { createOpenApiDocument } from "./document.ts";
export { createEncodedBody, negotiateContentCoding } from "./encodings.ts";
export { REFERENCE_PAGE_CSP, renderReferencePage } from "./reference-page.ts";
