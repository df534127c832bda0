import { Command } from "commander";
import { type InitOptions, initAction, printInit, withInitOptions } from "../init-app.ts";
import { contextOf } from "../kit.ts";

/** `tessera init [dir]`: adds Tessera to a Remix app (init-app.ts, which `create` shares). */
export const initCommand = withInitOptions(
  new Command("init")
    .description("add Tessera to an existing Remix app")
    .argument("[dir]", "the app (default .)"),
).action(async (dir: string | undefined, options: InitOptions, command: Command) => {
  const run = contextOf(command);
  printInit(run, await initAction(run, dir, options));
});
