import { type CommandSpec, type CompletionSpec, commandNames } from './spec.js';

/**
 * The lookup tables bash and zsh scripts share, written as POSIX `case` functions
 * (bash 3.2 on macOS has no associative arrays). A command path is the canonical names joined by spaces:
 * `""` before any command, `usage`, `config enable`. Every function prints one candidate per line.
 */

/** A shell word in single quotes: safe for any text. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

interface Node {
  path: string;
  command: CommandSpec;
}

/** The root and every command, depth first, with their paths. */
function walk(spec: CompletionSpec): Node[] {
  const nodes: Node[] = [{ path: '', command: spec.root }];
  const visit = (command: CommandSpec, parent: string) => {
    const path = parent === '' ? command.name : `${parent} ${command.name}`;
    nodes.push({ path, command });
    for (const sub of command.subcommands) visit(sub, path);
  };
  for (const command of spec.commands) visit(command, '');
  return nodes;
}

function printLines(lines: readonly string[]): string {
  return lines.length === 0 ? ':' : `printf '%s\\n' ${lines.map(quote).join(' ')}`;
}

/** A shell function that is one `case` over `subject`, with one `pattern) action ;;` line per arm. */
function caseFunction(name: string, subject: string, arms: readonly string[]): string {
  return [`${name}() {`, `  case "${subject}" in`, ...arms, '  esac', '}'].join('\n');
}

/** A `case` function over the paths; `body(node)` returns the candidates of that path. */
function pathTable(name: string, nodes: readonly Node[], body: (node: Node) => string[]): string {
  const arms = nodes.flatMap((node) => {
    const lines = body(node);
    return lines.length > 0 ? [`    ${quote(node.path)}) ${printLines(lines)} ;;`] : [];
  });
  return caseFunction(name, '$1', arms);
}

/** `zsh` wants `name:description`, with colons in the name escaped. */
function described(name: string, description: string, withDescriptions: boolean): string {
  if (!withDescriptions) return name;
  return `${name.replace(/:/g, '\\:')}:${description.replace(/\s+/g, ' ').trim()}`;
}

export function tableFunctions(spec: CompletionSpec, prefix: string, withDescriptions: boolean): string {
  const nodes = walk(spec);
  const command = caseFunction(
    `${prefix}_command`,
    '$1|$2',
    nodes.flatMap(({ path, command: cmd }) =>
      cmd.subcommands.map((sub) => {
        const target = path === '' ? sub.name : `${path} ${sub.name}`;
        const patterns = commandNames(sub).map((name) => quote(`${path}|${name}`));
        return `    ${patterns.join('|')}) printf '%s\\n' ${quote(target)} ;;`;
      }),
    ),
  );
  const words = pathTable(`${prefix}_words`, nodes, ({ command: cmd }) => [
    ...cmd.subcommands.flatMap((sub) =>
      commandNames(sub).map((name) => described(name, sub.description, withDescriptions)),
    ),
    ...cmd.positional.map((value) => described(value, '', withDescriptions)),
  ]);
  const options = pathTable(`${prefix}_options`, nodes, ({ command: cmd }) =>
    cmd.options.flatMap((option) =>
      option.names.map((name) => described(name, option.description, withDescriptions)),
    ),
  );
  const valueOptions = pathTable(`${prefix}_value_options`, nodes, ({ command: cmd }) =>
    cmd.options.filter((option) => option.value !== undefined).flatMap((option) => option.names),
  );
  const values = caseFunction(
    `${prefix}_values`,
    '$1|$2',
    nodes.flatMap(({ path, command: cmd }) =>
      cmd.options.flatMap((option) => {
        const patterns = option.names.map((name) => quote(`${path}|${name}`)).join('|');
        if (option.value?.kind === 'list') return [`    ${patterns}) ${printLines(option.value.values)} ;;`];
        if (option.value?.kind === 'accounts') {
          // The labels are read from the config when completing, by the very program being completed.
          return [`    ${patterns}) command "$3" completion --list-accounts 2>/dev/null ;;`];
        }
        return [];
      }),
    ),
  );
  return [command, words, options, valueOptions, values].join('\n\n');
}
