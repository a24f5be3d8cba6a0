import type { Command } from 'commander';

/**
 * What the shell completions know, read from the commander tree at run time, so a completion script can
 * never offer a flag the CLI does not have.
 */

/** Where an option's values come from: a fixed list, or the account labels read from the config when completing. */
export type ValueSource =
  | { kind: 'list'; values: readonly string[] }
  | { kind: 'accounts' }
  | { kind: 'none' };

export interface OptionSpec {
  /** `--json`, or `-v` and `--verbose`. */
  names: string[];
  description: string;
  /** Takes a value (`--days <n>`); its candidates, if any. */
  value?: ValueSource;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  description: string;
  options: OptionSpec[];
  subcommands: CommandSpec[];
  /** Fixed values of a positional argument (`completion bash|zsh|…`). */
  positional: string[];
}

export interface CompletionSpec {
  program: string;
  /** Options before any command: the program's own and those of the default command. */
  root: CommandSpec;
  commands: CommandSpec[];
}

/** Flags whose values are not a commander choice list but can still be offered. */
function specialValues(long: string | undefined): ValueSource | undefined {
  if (long === '--account') return { kind: 'accounts' };
  if (long === '--timezone') return { kind: 'list', values: timeZoneNames() };
  return undefined;
}

/** IANA names, plus `UTC`, which some Node builds leave out of supportedValuesOf. */
function timeZoneNames(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : [...zones, 'UTC'];
}

export function completionSpec(program: Command): CompletionSpec {
  const root = commandSpec(program);
  root.name = '';
  root.options.unshift({ names: ['-V', '--version'], description: 'print the version' });
  return { program: program.name(), root, commands: root.subcommands };
}

/**
 * A command with a default subcommand (the program runs `usage`, `config` runs `validate`) also takes that
 * subcommand's options before any subcommand is named.
 */
function commandSpec(command: Command): CommandSpec {
  const subcommands = command.commands.filter(visible).map(commandSpec);
  const fallback = subcommands.find((sub) => sub.name === defaultCommandName(command));
  const own = optionSpecs(command);
  const inherited = (fallback?.options ?? []).filter(
    (option) => !option.names.some((name) => own.some((mine) => mine.names.includes(name))),
  );
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
    options: [...own, ...inherited],
    subcommands,
    positional: command.registeredArguments.flatMap((argument) => argument.argChoices ?? []),
  };
}

function defaultCommandName(command: Command): string | undefined {
  return (command as unknown as { _defaultCommandName?: string | null })._defaultCommandName ?? undefined;
}

function optionSpecs(command: Command): OptionSpec[] {
  const specs = command.options
    .filter((option) => !option.hidden)
    .map((option): OptionSpec => {
      const names = [option.short, option.long].filter((name): name is string => name !== undefined);
      const spec: OptionSpec = { names, description: option.description };
      if (option.required || option.optional) {
        spec.value =
          specialValues(option.long) ??
          (option.argChoices ? { kind: 'list', values: option.argChoices } : { kind: 'none' });
      }
      return spec;
    });
  return [...specs, { names: ['-h', '--help'], description: 'show help' }];
}

function visible(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden !== true;
}

/** Every name a command answers to. */
export function commandNames(command: CommandSpec): string[] {
  return [command.name, ...command.aliases];
}
