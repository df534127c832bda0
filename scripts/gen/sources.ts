import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AnyContract } from "../../packages/auth-core/src/contracts/contract.ts";
import { contracts } from "../../packages/auth-core/src/contracts/index.ts";

/** The repository root, as a path ending in `/`. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SOURCE = `${ROOT}packages/auth-core/src/`;

/** Where a value is exported: the file (under packages/auth-core/src/) and its export name. */
export interface ExportSite {
  file: string;
  exportName: string;
}

/** A contract with the module export it comes from and the handler export that serves it. */
export interface ContractSource {
  contract: AnyContract;
  site: ExportSite;
  handler: ExportSite;
}

function listFiles(folder: string, keep: (path: string) => boolean): string[] {
  return readdirSync(`${SOURCE}${folder}`, { recursive: true, encoding: "utf8" })
    .map((name) => `${folder}${name}`)
    .filter((path) => path.endsWith(".ts") && !path.endsWith(".test.ts") && keep(path))
    .sort();
}

async function readExports(file: string): Promise<[string, unknown][]> {
  const module = (await import(pathToFileURL(`${SOURCE}${file}`).href)) as Record<string, unknown>;
  return Object.entries(module);
}

/** `export const name = defineEndpoint(someContract, …)`: read from the text, so no server code loads. */
const HANDLER_EXPORT = /^export const (\w+) = defineEndpoint\((\w+Contract)\b/gm;

/**
 * Every contract, in the order of the contract registry (contracts/index.ts), paired with the
 * handler (`defineEndpoint(thatContract, …)`) found under a `features/**\/endpoints/` folder. Throws on a contract exported by a module
 * the registry does not list, and on a contract with no handler or two.
 */
export async function readContractSources(): Promise<ContractSource[]> {
  const sites = new Map<AnyContract, ExportSite>();
  for (const file of listFiles("contracts/", () => true))
    for (const [exportName, value] of await readExports(file))
      if (exportName.endsWith("Contract") && typeof value === "object")
        sites.set(value as AnyContract, { file, exportName });
  const handlers = new Map<string, ExportSite[]>();
  for (const file of listFiles("features/", (path) => /\/endpoints\/[^/]+$/.test(path)))
    for (const [, exportName, contractName] of readFileSync(`${SOURCE}${file}`, "utf8").matchAll(
      HANDLER_EXPORT,
    ))
      handlers.set(contractName!, [
        ...(handlers.get(contractName!) ?? []),
        { file, exportName: exportName! },
      ]);
  const unlisted = [...sites].filter(([contract]) => !contracts.includes(contract));
  if (unlisted.length > 0)
    throw new Error(
      `contracts/index.ts does not list the modules of ${unlisted.map(([, site]) => site.file).join(", ")}`,
    );
  // Module namespaces list their exports in a different order under tsx and vitest: sort by the
  // registry's module order, then by place in the module's text.
  const moduleOrder = [...new Set(contracts.map((contract) => sites.get(contract)?.file))];
  const placeOf = (site: ExportSite) =>
    readFileSync(`${SOURCE}${site.file}`, "utf8").indexOf(`export const ${site.exportName} =`);
  const ordered = [...contracts].sort((a, b) => {
    const [left, right] = [sites.get(a)!, sites.get(b)!];
    return moduleOrder.indexOf(left.file) - moduleOrder.indexOf(right.file) || placeOf(left) - placeOf(right);
  });
  return ordered.map((contract) => {
    const site = sites.get(contract)!;
    const found = handlers.get(site.exportName) ?? [];
    if (found.length !== 1)
      throw new Error(`${contract.name}: ${found.length} handlers (defineEndpoint) instead of one`);
    return { contract, site, handler: found[0]! };
  });
}
