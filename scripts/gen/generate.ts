import type { AnyContract } from "../../packages/auth-core/src/contracts/contract.ts";
import { listClientMethods, writeApiFile, writeRoutesFile } from "./client-files.ts";
import { writeReferenceFile } from "./reference-file.ts";
import { writeRegistryFile } from "./registry-file.ts";
import { readContractSources } from "./sources.ts";

/** A file `pnpm gen` writes: its path from the repository root and its whole text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/** Everything derived from the contracts, in memory (scripts/gen.ts writes it; a test compares it). */
export async function generateFiles(): Promise<GeneratedFile[]> {
  const sources = await readContractSources();
  const methods = listClientMethods(sources);
  const clientNames = new Map<AnyContract, string>(
    methods.map((method) => [method.source.contract, method.name.join(".")]),
  );
  const core = "packages/auth-core/src";
  return [
    { path: `${core}/client/routes.generated.ts`, text: writeRoutesFile(methods) },
    { path: `${core}/client/api.generated.ts`, text: writeApiFile(methods) },
    { path: `${core}/features/registry.ts`, text: writeRegistryFile(sources) },
    { path: "docs/reference.md", text: writeReferenceFile(sources, clientNames) },
  ];
}
