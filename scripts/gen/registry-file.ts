import { compareImportPaths, GENERATED_HEADER } from "./client-files.ts";
import type { ContractSource } from "./sources.ts";

/**
 * features/registry.ts: every handler, in the contract registry's order, so that adding an endpoint
 * is a contract and a handler file. Two handlers exported under one name get the second one's
 * feature folder as a prefix.
 */
export function writeRegistryFile(sources: readonly ContractSource[]): string {
  const taken = new Set<string>();
  const bindingsByFile = new Map<string, string[]>();
  const names = sources.map(({ handler }) => {
    let local = handler.exportName;
    if (taken.has(local))
      local = `${handler.file.split("/")[1]!.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}${local.replace(/^\w/, (c) => c.toUpperCase())}`;
    taken.add(local);
    const binding = local === handler.exportName ? local : `${handler.exportName} as ${local}`;
    const from = `./${handler.file.replace(/^features\//, "")}`;
    bindingsByFile.set(from, [...(bindingsByFile.get(from) ?? []), binding]);
    return local;
  });
  // One import per file, its names sorted, wrapped as Biome formats it (lineWidth 110).
  const sortedImports = [...bindingsByFile.keys()]
    .sort(compareImportPaths)
    .map((from) => importLine(from, [...bindingsByFile.get(from)!].sort()));
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

function importLine(from: string, bindings: readonly string[]): string {
  const line = `import { ${bindings.join(", ")} } from "${from}";`;
  if (line.length <= 110 || bindings.length === 1) return line;
  return [`import {`, ...bindings.map((binding) => `  ${binding},`), `} from "${from}";`].join("\n");
}
