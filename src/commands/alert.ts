import { type Command, InvalidArgumentError, Option } from 'commander';
import { checkAccount, type Sent } from '../alert/check.js';
import { checkWebhookUrl, type Delivery, deliveries } from '../alert/deliver.js';
import { parseThresholds } from '../alert/thresholds.js';
import type { CliIo } from '../cli/io.js';
import {
  addAccountOptions,
  maxAgeOption,
  providerOption,
  type SharedFlags,
  sharedOptions,
} from '../cli/options.js';
import { Reporter, writeTextError } from '../cli/output.js';
import { duration } from '../cli/parsers.js';
import { type AccountFlags, accountFlagsUsed, checkAccountFlags } from '../config/accounts.js';
import { ArgumentError } from '../errors.js';
import { encodeJson } from '../lib/json.js';
import { redact } from '../lib/redact.js';
import { forEachAccount } from '../session/per-account.js';
import { noteTimeZone, obtainUsage } from '../session/usage-cache.js';

/**
 * `codexbar alert`: one check of every selected account against the thresholds, each threshold sent once
 * per billing cycle per account and channel (src/alert/), then exit; `--every` repeats the check until a stop
 * signal. Exit codes: 0 the check ran (whether or not an alert went out), 1 a check or a delivery failed (an
 * unsent alert is sent by the next run), 64 bad arguments, as under `guard`.
 */

const ALERT_EXIT = { ok: 0, failed: 1, usage: 64 } as const;

/** Where a webhook URL may come from instead of argv, which every user of the machine can read. */
const WEBHOOK_VARIABLE = 'CODEXBAR_ALERT_WEBHOOK_URL';

class AlertArgumentError extends ArgumentError {
  override readonly exitCode = ALERT_EXIT.usage;
}

/** commander's refusals of `alert`'s arguments exit 64 too (src/cli.ts). */
export const argumentError = (message: string) => new AlertArgumentError(message);

const ALERT_EXAMPLES = `
Each threshold is sent once per billing cycle and account, on the most-used window (Total, Cursor,
Third Party, Grok Bot); a level that jumps past several sends one alert, for the highest. A failed
delivery is retried by the next run. --exec takes one program, run without a shell or arguments.
Exit codes: 0 checked (alerts sent or not), 1 a check or a delivery failed, 64 bad arguments.

Examples:
  codexbar alert --at 50,80,95                       a desktop notification at 50, 80 and 95 % used
  codexbar alert --on-demand-at 90 --webhook https://ntfy.sh/<topic>?tpl=1&m={{.text}}
  CODEXBAR_ALERT_WEBHOOK_URL=https://hooks.slack.com/... codexbar alert --at 80,95
  codexbar alert --exec ~/bin/on-cursor-alert        the figures in CODEXBAR_ALERT_* variables
  codexbar alert --all-accounts --every 5m           keep checking every token account
  */10 * * * * codexbar alert --at 80,95             (crontab: every 10 minutes)`;

export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addAccountOptions(
    program
      .command('alert')
      .description('notify once per billing cycle when usage crosses a threshold (cron-friendly)')
      .addOption(providerOption().default('cursor'))
      .addOption(
        new Option('--at <percents>', 'plan thresholds, e.g. 50,80,95 (default 80,95)').argParser(
          thresholds('--at'),
        ),
      )
      .addOption(
        new Option(
          '--on-demand-at <percents>',
          'on-demand spend thresholds, in percent of its limit',
        ).argParser(thresholds('--on-demand-at')),
      )
      .option('--desktop', 'a desktop notification (the default without --webhook or --exec)')
      .addOption(
        new Option(
          '--webhook <url>',
          `POST the alert as JSON (https, or http on loopback; or ${WEBHOOK_VARIABLE})`,
        ).argParser((value: string) => webhookUrl(value, '--webhook')),
      )
      .option('--exec <program>', 'run this program (no shell, no arguments) with CODEXBAR_ALERT_* variables')
      .addOption(
        new Option('--every <duration>', 'check again after this long until stopped, 10 s to 24 h').argParser(
          duration('--every', { min: 10, max: 86_400 }),
        ),
      )
      .addOption(
        new Option('--delivery-timeout <duration>', 'the longest one delivery may take, 0.1-300 s')
          .argParser(duration('--delivery-timeout', { min: 0.1, max: 300 }))
          .default(10_000, '10s'),
      )
      .addOption(
        new Option('--timeout <duration>', 'how long to wait for cursor.com, 0-86400 s')
          .argParser(duration('--timeout', { min: 0, max: 86_400 }))
          .default(60_000, '60s'),
      )
      .addOption(maxAgeOption(0, 'use a cached snapshot at most this old (0: always live)'))
      .option('--json', 'one JSON object per alert sent, one per line')
      .option('-v, --verbose', 'say where the figures came from and what was decided, on stderr'),
  )
    .addHelpText('after', ALERT_EXAMPLES)
    .action(async (flags: AlertFlags) => setExitCode(await alertCommand(flags, io)));
}

function thresholds(flag: string): (value: string) => number[] {
  return (value) => {
    const parsed = parseThresholds(flag, value);
    if (typeof parsed === 'string') throw new InvalidArgumentError(parsed);
    return parsed;
  };
}

function webhookUrl(value: string, name: string): string {
  const checked = checkWebhookUrl(value, name);
  if ('refusal' in checked) throw new InvalidArgumentError(checked.refusal);
  return checked.url;
}

interface AlertFlags extends AccountFlags {
  provider: SharedFlags['provider'];
  at?: number[];
  onDemandAt?: number[];
  desktop?: boolean;
  webhook?: string;
  exec?: string;
  /** Milliseconds. */
  every?: number;
  deliveryTimeout: number;
  timeout: number;
  maxAge: number;
  json?: boolean;
  verbose?: boolean;
}

async function alertCommand(flags: AlertFlags, io: CliIo): Promise<number> {
  const options = sharedOptions({
    provider: flags.provider,
    json: flags.json,
    verbose: flags.verbose,
    color: false,
  });
  const reporter = new Reporter(io, options);
  let channels: Delivery[];
  try {
    checkAccountFlags(flags);
    const envWebhook = io.env[WEBHOOK_VARIABLE]?.trim();
    const webhook = flags.webhook ?? (envWebhook ? envWebhookUrl(envWebhook) : undefined);
    const desktop = flags.desktop === true || (webhook === undefined && flags.exec === undefined);
    channels = deliveries({ desktop, webhook, exec: flags.exec, timeoutMs: flags.deliveryTimeout }, io);
  } catch (error) {
    throw error instanceof ArgumentError && !(error instanceof AlertArgumentError)
      ? new AlertArgumentError(error.message, error.hint)
      : error;
  }
  const check = () => checkOnce(flags, io, reporter, channels);
  if (flags.every === undefined) return check();
  return repeat(io, flags.every, check);
}

function envWebhookUrl(value: string): string {
  try {
    return webhookUrl(value, WEBHOOK_VARIABLE);
  } catch (error) {
    throw new AlertArgumentError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * `--every`: check, wait, check again, until SIGINT, SIGTERM or SIGHUP (then exit 0). The wait is the run's
 * `timing.sleep`, so a test ends the loop by rejecting a wait. A failed check is printed and the loop goes on.
 */
async function repeat(io: CliIo, everyMs: number, check: () => Promise<number>): Promise<number> {
  const stop = new AbortController();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  // The handlers go at the first signal: a second Ctrl-C during a slow check ends the process at once.
  const onSignal = () => {
    for (const signal of signals) process.off(signal, onSignal);
    stop.abort();
  };
  for (const signal of signals) process.on(signal, onSignal);
  try {
    while (!stop.signal.aborted) {
      await check();
      try {
        await io.timing.sleep(everyMs, stop.signal);
      } catch {
        break;
      }
    }
    return ALERT_EXIT.ok;
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
  }
}

/** One account's check: what it sent, or why it could not check. */
type AccountRun = { label?: string } & (
  | { sent: Sent[]; error?: undefined }
  | { sent?: undefined; error: unknown }
);

async function checkOnce(
  flags: AlertFlags,
  io: CliIo,
  reporter: Reporter,
  channels: Delivery[],
): Promise<number> {
  const log = reporter.verbose;
  const named = accountFlagsUsed(flags);
  const timeZone = noteTimeZone(io, log);
  let code: number = ALERT_EXIT.ok;
  try {
    const outcomes = await forEachAccount(io, reporter.options, flags, log, async (target, accountLog) => {
      const policy = { maxAgeMs: flags.maxAge, deadlineMs: flags.timeout, timeZone };
      return obtainUsage(io, reporter.options, accountLog, policy, target);
    });
    const runs = outcomes.map(async (outcome): Promise<AccountRun> => {
      const label = named ? outcome.account?.label : undefined;
      if (!outcome.ok) return { label, error: outcome.error };
      try {
        return { label, sent: await checkAccount(flags, outcome.value, { label, timeZone, channels, log }) };
      } catch (error) {
        return { label, error };
      }
    });
    for (const run of await Promise.all(runs)) {
      if (run.sent === undefined) {
        writeTextError(io, run.error, run.label);
        code = ALERT_EXIT.failed;
        continue;
      }
      for (const sent of run.sent) {
        print(io, flags, sent);
        for (const { channel, error } of sent.failed) {
          const what = `The ${sent.alert.threshold}% ${sent.alert.level.kind} alert was not sent (${channel}): ${error.message}; the next run retries it.`;
          writeTextError(io, new Error(what), run.label);
          code = ALERT_EXIT.failed;
        }
      }
    }
  } catch (error) {
    // The ordinary ladder's failure, a config error, or no account to select: nothing was checked.
    writeTextError(io, error);
    code = ALERT_EXIT.failed;
  }
  return code;
}

/** Text: the alert's sentence and where it went, for each alert sent. JSON: one object per alert tried. */
function print(io: CliIo, flags: AlertFlags, sent: Sent): void {
  const { alert, message } = sent;
  if (flags.json) {
    const row = {
      provider: 'cursor',
      account: alert.account,
      kind: alert.level.kind,
      threshold: alert.threshold,
      usedPercent: alert.level.percent,
      window: alert.level.window,
      cycleEnd: alert.level.cycle,
      usedUSD: alert.level.usedUSD,
      limitUSD: alert.level.limitUSD,
      title: message.title,
      text: message.text,
      delivered: sent.delivered,
      failed: sent.failed.map(({ channel, error }) => ({ channel, message: redact(error.message) })),
    };
    io.stdout.write(`${encodeJson(row)}\n`);
    return;
  }
  if (sent.delivered.length > 0) io.stdout.write(`${message.text} (sent: ${sent.delivered.join(', ')})\n`);
}
