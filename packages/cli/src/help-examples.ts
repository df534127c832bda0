import type { Command } from "commander";

/**
 * The first thing each help shows: commands to copy, by command path. A newcomer reads examples
 * before option lists (as `git` and `gh` help do).
 */
const EXAMPLES: Record<string, readonly string[]> = {
  "": [
    "tessera doctor                      check the app's database and configuration",
    "tessera migrate up                  apply pending migrations",
    "tessera users list --search ann     find users",
    "tessera db start                    a local database for development",
    "tessera --json users get ann@example.com",
  ],
  init: ["tessera init", "tessera init --yes --features organization,admin --providers github"],
  create: ["tessera create ../my-app --yes"],
  users: [
    "tessera users list --role admin",
    "tessera users create ann@example.com --name Ann --password-stdin < password.txt",
    'tessera users ban ann@example.com --reason "spam" --expires-in 604800 --yes',
  ],
  "users passkeys": [
    "tessera users passkeys ann@example.com",
    "tessera --json users passkeys ann@example.com",
  ],
  "users remove-passkey": ["tessera users remove-passkey ann@example.com 6650f1c2a4e0b9d3c1a2b3c4 --yes"],
  "users list": ["tessera users list --search example.com --limit 20", "tessera users list --all --json"],
  webhooks: [
    "tessera webhooks add https://hooks.example.com/tessera --events user.created,user.deleted",
    "tessera webhooks list --org <organization-id>",
    "tessera webhooks replay <endpoint-id> --since 2026-11-28T00:00:00Z",
  ],
  sessions: ["tessera sessions list --user ann@example.com", "tessera sessions revoke <session-id> --yes"],
  orgs: [
    "tessera orgs list",
    "tessera orgs show acme",
    "tessera orgs add-member acme ann@example.com --role admin",
  ],
  invitations: ["tessera invitations send --org acme --csv team.csv --dry-run"],
  "invitations send": [
    "tessera invitations send --org acme --csv team.csv --dry-run",
    "  team.csv: a header line (email,role,team), then one invitation a line; , or ; between fields",
  ],
  audit: ["tessera audit list --actor admin@example.com --limit 20"],
  import: ["tessera import --from better-auth --source-uri mongodb://old-host/app --dry-run"],
  export: ["tessera export --user ann@example.com --output ann.json"],
  doctor: [
    "tessera doctor",
    "tessera doctor --fix",
    "TESSERA_CONFIG=apps/web/tessera.config.ts tessera doctor",
  ],
  migrate: ["tessera migrate status", "tessera migrate up"],
  db: ["tessera db start", "tessera db start --port 27018 --data-dir .data/db"],
  "db start": ["tessera db start", "tessera db start --port 27018 --data-dir .data/db"],
  cleanup: ["tessera cleanup"],
  secret: ["tessera secret >> .env   (then edit it into TESSERA_SECRET=…)"],
  completion: [
    "tessera completion bash > ~/.local/share/bash-completion/completions/tessera",
    "tessera completion zsh > ~/.zfunc/_tessera",
    "tessera completion fish > ~/.config/fish/completions/tessera.fish",
  ],
};

/** Puts each command's examples above its usage line. */
export function addExamples(program: Command): void {
  const visit = (command: Command, path: string) => {
    const examples = EXAMPLES[path];
    if (examples)
      command.addHelpText("before", `Examples:\n${examples.map((line) => `  ${line}`).join("\n")}\n`);
    for (const sub of command.commands) visit(sub, path === "" ? sub.name() : `${path} ${sub.name()}`);
  };
  visit(program, "");
}
