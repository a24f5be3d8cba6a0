import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { resolveBaseUrl } from '../api/base-url.js';
import { CursorClient } from '../api/client.js';
import { loadConfig } from '../config/config.js';
import { checkAuth } from '../doctor/auth.js';
import { checkEnvironment } from '../doctor/environment.js';
import type { AuthReport } from '../doctor/types.js';
import type { LocalEnvironment } from '../local/environment.js';
import { doctorJson } from '../render/doctor-json.js';
import { renderDoctorText } from '../render/doctor-text.js';
import type { CliIo } from './io.js';
import { addOutputOptions, type OutputFlags, outputOptions } from './options.js';
import { choiceOption } from './parsers.js';
import { Reporter } from './report.js';

const PLATFORM_NAMES = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' } as const;

/** `codexbar doctor`, alias `diagnose` (docs/behaviour.md §27.7). */
export function registerDoctorCommand(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): void {
  addOutputOptions(
    program
      .command('doctor')
      .alias('diagnose')
      .description(
        'check the set-up: credentials, config, cache, proxy and network, with a fix for each problem',
      ),
  )
    .addOption(
      choiceOption(
        '--provider <id>',
        'provider to check (all and both mean cursor)',
        ['cursor', 'all', 'both'],
        (value) => `unknown provider '${value}' (supported: cursor)`,
      ),
    )
    .option('--redact', 'accepted for CodexBar compatibility: the export is always redacted')
    .addHelpText('after', DOCTOR_EXAMPLES)
    .action(async (flags: OutputFlags) => setExitCode(await doctorCommand(flags, io)));
}

const DOCTOR_EXAMPLES = `
Nothing secret is ever printed: sources, files and reasons only.

Examples:
  codexbar doctor                            what is found, what is used, and how to fix what is not
  codexbar diagnose --format json --pretty   the redacted export (CodexBar's diagnose, plus codexbar's checks)`;

async function doctorCommand(flags: OutputFlags, io: CliIo): Promise<number> {
  const reporter = new Reporter(io, outputOptions(flags));
  const env: LocalEnvironment = { platform: io.platform, env: io.env, homeDir: io.homeDir, now: io.now };
  try {
    const environment = await checkEnvironment(env, io.timing.optionalTimeoutMs);
    const auth = await authReport(env, io);
    const platformName = PLATFORM_NAMES[io.platform];
    const problems = environment.problems.length + auth.problems.length;
    if (reporter.json) {
      const appVersion = await ownVersion();
      reporter.printJson(doctorJson({ environment, auth, platformName, appVersion, now: io.now() }));
      // CodexBar's export exits 0 whatever it found; the text report is for people and for `&&`.
      return 0;
    }
    reporter.printText(renderDoctorText({ environment, auth, platformName, colour: reporter.colour }));
    return problems > 0 ? 1 : 0;
  } catch (error) {
    return reporter.fail(error);
  }
}

/** The credential checks need a readable config and an acceptable base URL; without them, say why. */
async function authReport(env: LocalEnvironment, io: CliIo): Promise<AuthReport> {
  let baseUrl: string;
  try {
    baseUrl = resolveBaseUrl(io.env.CODEXBAR_CURSOR_BASE_URL);
  } catch {
    return skippedAuth('the base URL is refused (see Problems)');
  }
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig(env);
  } catch {
    return skippedAuth('the config file cannot be read (see Problems)');
  }
  const client = new CursorClient({ baseUrl });
  try {
    return await checkAuth({ env, config, client, timeoutMs: io.timing.requestTimeoutMs });
  } finally {
    await client.close();
  }
}

function skippedAuth(why: string): AuthReport {
  return {
    mode: 'auto',
    sources: [
      { id: 'all', name: 'credential sources', state: 'skipped', detail: `not checked: ${why}`, notes: [] },
    ],
    accounts: [],
    problems: [],
  };
}

/**
 * package.json next to the bundle (dist/) or the sources (src/commands/). The bundle is CommonJS
 * (docs/architecture.md, Start-up), where `import.meta` is empty; the sources run as ES modules in tests.
 */
async function ownVersion(): Promise<string | undefined> {
  const here = typeof __filename === 'string' ? pathToFileURL(__filename).href : import.meta.url;
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(await readFile(new URL(relative, here), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'codexbar' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not there: try the next place.
    }
  }
  return undefined;
}
