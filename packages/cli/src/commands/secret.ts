import { randomBytes } from "node:crypto";
import { Command } from "commander";
import { contextOf, type RunContext, report } from "../kit.ts";

export interface SecretResult {
  secret: string;
}

/** A new secret for TESSERA_SECRET: 32 random bytes, base64url (43 characters). */
export function secretAction(): SecretResult {
  return { secret: randomBytes(32).toString("base64url") };
}

function printSecret(run: RunContext, result: SecretResult): void {
  report(run, result, (data) => [data.secret]);
}

export const secretCommand = new Command("secret")
  .description("print a new random secret for TESSERA_SECRET")
  .action((_options, command: Command) => {
    printSecret(contextOf(command), secretAction());
  });
