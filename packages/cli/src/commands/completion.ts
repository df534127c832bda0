import { Argument, Command } from "commander";
import { writeLine } from "../io.ts";
import { contextOf } from "../kit.ts";

/** One command of the tree, as a completion script needs it. */
interface CompletionNode {
  /** "" for tessera itself, else "users list". */
  path: string;
  subcommands: string[];
  /** The values its arguments take (`completion`'s shells), offered like subcommands. */
  values: string[];
  /** Long flags, with descriptions (fish shows them). */
  options: { flag: string; description: string }[];
}

function describeTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    nodes.push({
      path,
      subcommands: command.commands.map((sub) => sub.name()),
      values: command.registeredArguments.flatMap((argument) => argument.argChoices ?? []),
      options: command.options
        .filter((option) => option.long && !option.hidden)
        .map((option) => ({ flag: option.long!, description: option.description })),
    });
    for (const sub of command.commands) visit(sub, path === "" ? sub.name() : `${path} ${sub.name()}`);
  };
  visit(program, "");
  return nodes;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Bash (and zsh's, which shares the walk): the command path typed so far, then the words it takes. */
function bashScript(nodes: CompletionNode[], globals: string[]): string {
  const paths = nodes.filter((node) => node.path !== "").map((node) => quote(node.path));
  const cases = nodes
    .map((node) => {
      const words = [
        ...node.subcommands,
        ...node.values,
        ...node.options.map((option) => option.flag),
        ...globals,
      ];
      return `    ${node.path === "" ? "''" : quote(node.path)}) words=${quote([...new Set(words)].join(" "))} ;;`;
    })
    .join("\n");
  return `# tessera completion for bash: source it, or save it as
#   ~/.local/share/bash-completion/completions/tessera
_tessera() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" candidate words i
  for ((i = 1; i < COMP_CWORD; i++)); do
    candidate="\${path:+$path }\${COMP_WORDS[i]}"
    case "$candidate" in
      ${paths.join("|")}) path="$candidate" ;;
    esac
  done
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _tessera tessera
`;
}

function zshScript(nodes: CompletionNode[], globals: string[]): string {
  const paths = nodes.filter((node) => node.path !== "").map((node) => quote(node.path));
  const cases = nodes
    .map((node) => {
      const words = [
        ...node.subcommands,
        ...node.values,
        ...node.options.map((option) => option.flag),
        ...globals,
      ];
      return `    (${node.path === "" ? "''" : quote(node.path)}) candidates=(${[...new Set(words)].join(" ")}) ;;`;
    })
    .join("\n");
  return `#compdef tessera
# tessera completion for zsh: save it as _tessera in a directory of $fpath (before compinit runs)
_tessera() {
  local path_="" candidate i
  local -a candidates
  for ((i = 2; i < CURRENT; i++)); do
    candidate="\${path_:+$path_ }\${words[i]}"
    case "$candidate" in
      (${paths.join("|")}) path_="$candidate" ;;
    esac
  done
  case "$path_" in
${cases}
  esac
  compadd -- $candidates
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _tessera "$@"
else
  compdef _tessera tessera
fi
`;
}

/**
 * Fish: `__tessera_at <path>` walks the typed words as the bash script does (the command path they
 * spell) and answers whether it is `<path>`, so each line applies at exactly one path. Fish's `__fish_seen_subcommand_from`
 * cannot tell `tessera create` from `tessera users create`, so it is not used.
 */
function fishScript(nodes: CompletionNode[], globals: string[]): string {
  const paths = nodes.filter((node) => node.path !== "").map((node) => quote(node.path));
  const lines = [
    "# tessera completion for fish: save it as ~/.config/fish/completions/tessera.fish",
    "function __tessera_at",
    '  set -l path ""',
    "  for word in (commandline -opc)[2..-1]",
    '    set -l candidate (string trim -- "$path $word")',
    `    contains -- $candidate ${paths.join(" ")}; and set path $candidate`,
    "  end",
    '  test "$path" = "$argv[1]"',
    "end",
    "complete -c tessera -f",
  ];
  const global = new Set(globals);
  for (const node of nodes) {
    const when = `'__tessera_at "${node.path}"'`;
    const words = [...node.subcommands, ...node.values];
    if (words.length > 0) lines.push(`complete -c tessera -n ${when} -a ${quote(words.join(" "))}`);
    for (const option of node.options) {
      // Global options apply at every path (commander reads them anywhere): one line, no condition.
      const scope = node.path === "" && global.has(option.flag) ? "" : ` -n ${when}`;
      lines.push(`complete -c tessera${scope} -l ${option.flag.slice(2)} -d ${quote(option.description)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The completion script for `shell`, from the command tree itself (so it never falls behind). */
function completionScript(program: Command, shell: "bash" | "zsh" | "fish"): string {
  const nodes = describeTree(program);
  // Global options are valid after any command (commander reads them anywhere); --version is not.
  const globals = [...nodes[0]!.options.map((option) => option.flag), "--help"].filter(
    (flag) => flag !== "--version",
  );
  if (shell === "bash") return bashScript(nodes, globals);
  if (shell === "zsh") return zshScript(nodes, globals);
  return fishScript(nodes, globals);
}

export const completionCommand = new Command("completion")
  .description("print a shell completion script (bash, zsh or fish)")
  .addArgument(new Argument("<shell>", "the shell").choices(["bash", "zsh", "fish"]))
  .action((shell: "bash" | "zsh" | "fish", _options, command: Command) => {
    const run = contextOf(command);
    let program = command;
    while (program.parent) program = program.parent;
    run.io.stdout.write(completionScript(program, shell));
    if (run.io.stdoutIsTTY)
      writeLine(run.io.stderr, `(redirect it to a file: see tessera completion --help)`);
  });
