import type { Command } from 'commander';
import type { CliIo } from '../cli/io.js';
import { addOutputOptions, type OutputFlags, providerOption } from '../cli/options.js';

/**
 * `codexbar doctor`, alias `diagnose` (docs/behaviour.md §27.7). This file only declares it;
 * src/commands/doctor-run.ts runs it and is imported only then (docs/architecture.md, Start-up).
 */
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
    .addOption(providerOption('provider to check'))
    .option('--redact', 'accepted for CodexBar compatibility: the export is always redacted')
    .addHelpText('after', DOCTOR_EXAMPLES)
    .action(async (flags: OutputFlags) => {
      const { doctorCommand } = await import('./doctor-run.js');
      setExitCode(await doctorCommand(flags, io));
    });
}

const DOCTOR_EXAMPLES = `
Nothing secret is ever printed: sources, files and reasons only.

Examples:
  codexbar doctor                            what is found, what is used, and how to fix what is not
  codexbar diagnose --format json --pretty   the redacted export (CodexBar's diagnose, plus codexbar's checks)`;
