import type { Command } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { resolveBaseUrl } from '../api/base-url.js';
import { CursorClient } from '../api/client.js';
import type { CliIo } from '../cli/io.js';
import { addOutputOptions, type OutputFlags, outputOptions, providerOption } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { loadConfig } from '../config/config.js';
import { checkAuth } from '../doctor/auth.js';
import { checkEnvironment } from '../doctor/environment.js';
import type { AuthReport } from '../doctor/types.js';
import { doctorJson } from '../render/doctor-json.js';
import { renderDoctorText } from '../render/doctor-text.js';

/** `codexbar doctor`, alias `diagnose`. */
export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addOutputOptions(
    program
      .command('doctor')
      .alias('diagnose')
      .description(
        'check the set-up: credentials, config, cache, proxy and network, with a fix for each problem',
      ),
  )
    .addOption(providerOption('provider to check'))
    .option('--redact', 'accepted for CodexBar compatibility: the export is always redacted')
    .addHelpText('after', DOCTOR_EXAMPLES)
    .action(async (flags: OutputFlags) => setExitCode(await doctorCommand(flags, io)));
}

const DOCTOR_EXAMPLES = `
Nothing secret is ever printed: sources, files and reasons only.

Examples:
  codexbar doctor                            what is found, what is used, and how to fix what is not
  codexbar diagnose --format json --pretty   the redacted export (CodexBar's diagnose, plus codexbar's checks)`;

const PLATFORM_NAMES = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' } as const;

async function doctorCommand(flags: OutputFlags, io: CliIo): Promise<number> {
  const reporter = new Reporter(io, outputOptions(flags));
  try {
    const environment = await checkEnvironment(io, io.timing.optionalTimeoutMs, io.now());
    const auth = await authReport(io);
    const platformName = PLATFORM_NAMES[io.platform];
    const problems = environment.problems.length + auth.problems.length;
    if (reporter.json) {
      reporter.printJson(
        doctorJson({ environment, auth, platformName, appVersion: pkg.version, now: io.now() }),
      );
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
async function authReport(io: CliIo): Promise<AuthReport> {
  let baseUrl: string;
  try {
    baseUrl = resolveBaseUrl(io.env.CODEXBAR_CURSOR_BASE_URL);
  } catch {
    return skippedAuth('the base URL is refused (see Problems)');
  }
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig(io);
  } catch {
    return skippedAuth('the config file cannot be read (see Problems)');
  }
  const client = new CursorClient({ baseUrl });
  try {
    return await checkAuth({ env: io, config, client, timeoutMs: io.timing.requestTimeoutMs });
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
