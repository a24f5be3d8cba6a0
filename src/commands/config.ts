import type { Command } from 'commander';
import type { CliIo } from '../cli/io.js';
import { addOutputOptions, type OutputFlags, type OutputOptions, outputOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { findConfigPath } from '../config/config.js';
import { readConfigDocument } from '../config/document.js';
import { newConfig, setProviderEnabled } from '../config/edit.js';
import { displayName, knownProviderId, providerStatuses } from '../config/providers.js';
import { redactConfig } from '../config/redact.js';
import { type ConfigIssue, validateConfigDocument } from '../config/validate.js';
import { type ConfigObject, updateConfigFile } from '../config/write.js';
import { ArgumentError, ConfigError } from '../errors.js';
import { safeText } from '../render/safe-text.js';

/**
 * `codexbar config validate|dump|providers|enable|disable`. `validate` is the default. Only `enable` and
 * `disable` write, through updateConfigFile (docs/invariants.md, "Nothing written outside the cache dir").
 */
export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  const config = program
    .command('config')
    .description('check, show and change the config file CodexBar and codexbar share')
    .addHelpText('after', CONFIG_EXAMPLES);
  const action =
    <F extends OutputFlags>(run: (flags: F, reporter: Reporter<OutputOptions>) => Promise<number>) =>
    async (flags: F) => {
      const reporter = new Reporter(io, outputOptions(flags));
      try {
        setExitCode(await run(flags, reporter));
      } catch (error) {
        setExitCode(reporter.fail(error));
      }
    };

  addOutputOptions(
    config.command('validate', { isDefault: true }).description('check the config file (default)'),
  ).action(action((_flags, reporter) => validate(reporter)));
  addOutputOptions(config.command('dump').description('print the config file as JSON, credentials redacted'))
    .option('--show-secrets', 'print tokens, cookies and keys as they are')
    .action(
      action((flags: OutputFlags & { showSecrets?: boolean }, reporter) =>
        dump(reporter, flags.showSecrets === true),
      ),
    );
  addOutputOptions(
    config.command('providers').description('list the providers and whether they are enabled'),
  ).action(action((_flags, reporter) => providers(reporter)));
  for (const enabled of [true, false]) {
    addOutputOptions(
      config
        .command(enabled ? 'enable' : 'disable')
        .description(
          `${enabled ? 'enable' : 'disable'} a provider in CodexBar (codexbar always queries Cursor)`,
        ),
    )
      .option('--provider <id>', 'the provider: cursor, or one already in the file')
      .action(
        action((flags: OutputFlags & { provider?: string }, reporter) =>
          toggle(reporter, flags.provider, enabled),
        ),
      );
  }
}

const CONFIG_EXAMPLES = `
Examples:
  codexbar config                            check the config file (same as: codexbar config validate)
  codexbar config dump --pretty              the file with tokens and cookies redacted
  codexbar config enable --provider cursor   show Cursor in CodexBar too`;

async function validate(reporter: Reporter<OutputOptions>): Promise<number> {
  const path = await findConfigPath(reporter.io);
  const issues = validateConfigDocument(await readConfigDocument(path));
  if (reporter.json) reporter.printJson(issues);
  else reporter.printText(issues.length === 0 ? 'Config: OK' : issues.map(issueLine).join('\n'));
  return issues.some((issue) => issue.severity === 'error') ? 1 : 0;
}

/**
 * `[WARNING] cursor (cookieHeader): …`, as CodexBar prints an issue; `config` stands for the whole file. A
 * message can quote the file (a label), so it is shown safe (docs/invariants.md, "Control characters never
 * reach a terminal"), like the provider ids of `providers` and `enable|disable`.
 */
function issueLine(issue: ConfigIssue): string {
  const field = issue.field ? ` (${issue.field})` : '';
  return `[${issue.severity.toUpperCase()}] ${issue.provider ?? 'config'}${field}: ${safeText(issue.message)}`;
}

/** Always JSON, an object, whatever the format (CodexBar's dump). A broken file is a config error. */
async function dump(reporter: Reporter<OutputOptions>, showSecrets: boolean): Promise<number> {
  const document = await readConfigDocument(await findConfigPath(reporter.io));
  let config: ConfigObject;
  switch (document.kind) {
    case 'missing':
      config = { version: 1, providers: [{ id: 'cursor' }] };
      break;
    case 'unreadable':
      throw new ConfigError(`Failed to read CodexBar config at ${document.path}: ${document.reason}`);
    case 'invalid':
      throw new ConfigError(`Failed to decode CodexBar config at ${document.path}: ${document.reason}`);
    case 'ok':
      config = document.raw;
  }
  reporter.printJson(showSecrets ? config : redactConfig(config));
  return 0;
}

async function providers(reporter: Reporter<OutputOptions>): Promise<number> {
  const document = await readConfigDocument(await findConfigPath(reporter.io));
  if (document.kind === 'unreadable' || document.kind === 'invalid') {
    throw new ConfigError(`Failed to decode CodexBar config at ${document.path}: ${document.reason}`);
  }
  const statuses = providerStatuses(document.kind === 'ok' ? document.file : undefined);
  if (reporter.json) reporter.printJson(statuses);
  else {
    reporter.printText(
      statuses
        .map(
          (s) =>
            `${safeText(s.provider)}: ${s.enabled ? 'enabled' : 'disabled'}${s.defaultEnabled ? ' default' : ''} (${safeText(s.displayName)})`,
        )
        .join('\n'),
    );
  }
  return 0;
}

async function toggle(
  reporter: Reporter<OutputOptions>,
  raw: string | undefined,
  enabled: boolean,
): Promise<number> {
  const env = reporter.io;
  const document = await readConfigDocument(await findConfigPath(env));
  const provider = knownProviderId(raw, document.kind === 'ok' ? document.file : undefined);
  if (provider === undefined) throw new ArgumentError('Unknown or missing provider. Use --provider <name>.');
  const { path } = await updateConfigFile(env, (current) => {
    const config = current ?? newConfig();
    setProviderEnabled(config, provider, enabled);
    return { config, result: undefined };
  });
  if (reporter.json) {
    reporter.printJson({ provider, displayName: displayName(provider), enabled, configPath: path });
  } else {
    reporter.printText(`Config: ${enabled ? 'enabled' : 'disabled'} ${safeText(displayName(provider))}`);
  }
  return 0;
}
