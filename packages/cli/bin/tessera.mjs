#!/usr/bin/env node
import { main } from "../dist/main.js";

// `tessera --help | head` closes the pipe before all is written: stop quietly, as other tools do,
// rather than print Node's EPIPE stack.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
