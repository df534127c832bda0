/**
 * `pnpm gen`: writes the files derived from the endpoint contracts (scripts/gen/generate.ts lists
 * them). Run it after adding or changing a contract or a handler; tests/core/generated-files.test.ts
 * fails while a generated file is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { generateFiles } from "./gen/generate.ts";
import { ROOT } from "./gen/sources.ts";

const readText = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

for (const file of await generateFiles()) {
  const path = `${ROOT}${file.path}`;
  if (readText(path) === file.text) continue;
  writeFileSync(path, file.text);
  console.log(`wrote ${file.path}`);
}
