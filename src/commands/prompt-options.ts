import { type Command, InvalidArgumentError, Option } from 'commander';
import { providerOption, sourceOption } from '../cli/options.js';
import { choiceOption, duration, numberInRange } from '../cli/parsers.js';
import { BROWSER_IDS } from '../config/schema.js';
import { DEFAULT_TEMPLATE, STATUSLINE_TOKENS, unknownTokens } from '../render/statusline.js';
import {
  MAX_AGE_RANGE,
  STATUSLINE_DEFAULT_MAX_AGE_MS,
  STATUSLINE_DEFAULT_TIMEOUT_MS,
  STATUSLINE_TIMEOUT_RANGE,
} from '../statusline/output.js';

/** The flags of `statusline`, `guard` and `cache clear`, and usage's `--max-age` (docs/behaviour.md §26). */

/** `--max-age <duration>`, in milliseconds once parsed. */
export function maxAgeOption(defaultMs: number, meaning: string): Option {
  return new Option('--max-age <duration>', meaning)
    .argParser(duration('--max-age', MAX_AGE_RANGE))
    .default(defaultMs, `${defaultMs / 1000}s`);
}

export function addStatuslineOptions(command: Command): Command {
  return command
    .addOption(providerOption().default('cursor'))
    .addOption(sourceOption('auth source: web uses cookies only; cli is auto'))
    .addOption(new Option('--web', 'same as --source web').hideHelp())
    .addOption(
      choiceOption('--browser <name>', 'read the cursor.com cookie from this browser only', BROWSER_IDS),
    )
    .addOption(
      new Option(
        '--template <text>',
        `what to print; tokens: ${STATUSLINE_TOKENS.map((t) => `{${t}}`).join(' ')}`,
      )
        .argParser(template)
        .default(DEFAULT_TEMPLATE),
    )
    .addOption(
      maxAgeOption(STATUSLINE_DEFAULT_MAX_AGE_MS, 'a snapshot older than this is shown stale and refreshed'),
    )
    .addOption(
      new Option('--timeout <duration>', 'how long to wait for cursor.com when there is no snapshot at all')
        .argParser(duration('--timeout', STATUSLINE_TIMEOUT_RANGE))
        .default(STATUSLINE_DEFAULT_TIMEOUT_MS, `${STATUSLINE_DEFAULT_TIMEOUT_MS / 1000}s`),
    )
    .option('--strict', 'exit 1 (4 on a timeout) when there is nothing to show, instead of 0')
    .option('--json', 'one JSON object instead of the line')
    .option('--pretty', 'pretty JSON (sorted keys)')
    .option('--color', 'colour even when stdout is not a terminal (NO_COLOR still wins)')
    .option('--no-color', 'no colour')
    .option('-v, --verbose', 'say where the figures came from, on stderr');
}

export function addGuardOptions(command: Command): Command {
  return command
    .addOption(providerOption().default('cursor'))
    .addOption(
      new Option('--min-remaining <percent>', 'the least percent left that passes, 0-100 (inclusive)')
        .argParser(numberInRange('--min-remaining', 0, 100))
        .default(10),
    )
    .addOption(
      choiceOption('--window <window>', 'session (Cursor: primary) or weekly (secondary)', [
        'session',
        'weekly',
      ]).default('session'),
    )
    .addOption(
      new Option('--timeout <duration>', 'how long to wait for cursor.com, 0-86400 s')
        .argParser(duration('--timeout', { min: 0, max: 86_400 }))
        .default(60_000, '60s'),
    )
    .addOption(maxAgeOption(0, 'use a cached snapshot at most this old (0: always live)'))
    .option('--fail-open', 'exit 0 instead of 69 when the quota is unavailable')
    .option('--json', 'one JSON object')
    .option('--pretty', 'pretty JSON (sorted keys)')
    .option('-v, --verbose', 'say where the figures came from, on stderr');
}

export function addCacheClearOptions(command: Command): Command {
  return command
    .option('--usage', 'the usage snapshots (statusline, --max-age)')
    .option('--cost', 'the cost cache')
    .option('--cookies', "CodexBar's legacy cached cookie file (cursor-cookie.json)")
    .option('--all', 'all of the above')
    .addOption(providerOption())
    .addOption(choiceOption('--format <format>', 'output format', ['text', 'json']))
    .option('--json', 'same as --format json')
    .option('--json-only', 'JSON on stdout and nothing on stderr')
    .option('--pretty', 'pretty JSON (sorted keys)');
}

function template(value: string): string {
  const unknown = unknownTokens(value);
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `--template has unknown ${unknown.length === 1 ? 'token' : 'tokens'} ${unknown.join(', ')} ` +
        `(tokens: ${STATUSLINE_TOKENS.map((token) => `{${token}}`).join(' ')}).`,
    );
  }
  return value;
}
