import { main } from "./main.ts";

// `pnpm tessera …` runs its script from the workspace root; pnpm passes the directory it was called
// from as INIT_CWD. Work there, so the app's tessera.config.ts and relative paths (--csv) are found.
if (process.env.npm_lifecycle_event === "tessera" && process.env.INIT_CWD)
  process.chdir(process.env.INIT_CWD);

// `tessera --help | head` closes the pipe before all is written: stop quietly, as other tools do,
// rather than print Node's EPIPE stack.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
