import { compareImportPaths, GENERATED_HEADER } from "./client-files.ts";
import type { ContractSource } from "./sources.ts";

/**
 * features/registry.ts: every handler, in the contract registry's order, so that adding an endpoint
 * is a contract and a handler file. Two handlers exported under one name get the second one's
 * feature folder as a prefix.
 */
export function writeRegistryFile(sources: readonly ContractSource[]): string {
  const taken = new Set<string>();
  const imports: string[] = [];
  const names = sources.map(({ handler }) => {
    let local = handler.exportName;
    if (taken.has(local))
      local = `${handler.file.split("/")[1]!.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}${local.replace(/^\w/, (c) => c.toUpperCase())}`;
    taken.add(local);
    const binding = local === handler.exportName ? local : `${handler.exportName} as ${local}`;
    imports.push(`import { ${binding} } from "./${handler.file.replace(/^features\//, "")}";`);
    return local;
  });
  const sortedImports = [...imports].sort((a, b) => compareImportPaths(pathOf(a), pathOf(b)));
  return [
    `// ${GENERATED_HEADER}`,
    "",
    'import type { AnyEndpoint } from "../http/define-endpoint.ts";',
    ...sortedImports,
    "",
    "const endpointList = [",
    ...names.map((name) => `  ${name},`),
    "] as const;",
    "",
    "/** Every core endpoint, in the contract registry's order: the router, `auth.api` and the docs read it. */",
    "export const coreEndpoints: readonly AnyEndpoint[] = endpointList;",
    "",
    "/** Every core endpoint with its types: the keys and signatures of `auth.api`. */",
    "export type CoreEndpoint = (typeof endpointList)[number];",
    "",
    "/** Every `auth.api` method name: typos fail to compile, and `auth.api.<name>` is never undefined. */",
    'export type CoreEndpointName = CoreEndpoint["name"];',
    "",
  ].join("\n");
}

const pathOf = (line: string) => /from "(.*)"/.exec(line)![1]!;
