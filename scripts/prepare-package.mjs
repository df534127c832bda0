// Run in a package directory before its build: removes dist/ so a tarball never carries output of
// deleted sources, and copies the repository's LICENSE in (npm packs a package's own LICENSE only).
import { copyFile, rm } from "node:fs/promises";

await rm("dist", { recursive: true, force: true });
await copyFile(new URL("../LICENSE", import.meta.url), "LICENSE");
