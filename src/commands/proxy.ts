/**
 * `codexbar proxy` (docs/proxy.md): an OpenAI-compatible pass-through for Cursor's "Override OpenAI Base
 * URL" that records each request's usage in the BYOK ledger, and `proxy token create|list|revoke`, the proxy
 * tokens Cursor is given instead of the provider key. The server runs until SIGINT, SIGTERM or SIGHUP, lets
 * answers in flight finish (bounded) and exits 0.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { createDispatcher, proxySettings } from '../api/transport.js';
import { authPaths } from '../auth/paths.js';
import type { CliIo } from '../cli/io.js';
import { addOutputOptions, type OutputFlags, outputOptions } from '../cli/options.js';
import { type OutputMode, reportFailure } from '../cli/output.js';
import { duration, wholeNumber } from '../cli/parsers.js';
import { loadConfig } from '../config/config.js';
import { ArgumentError, ConfigError } from '../errors.js';
import { encodeJson } from '../lib/json.js';
import { displayPath } from '../local/paths.js';
import { readTextFileSync } from '../local/read-file-sync.js';
import { type Ledger, ledgerPath, openLedger } from '../proxy/ledger.js';
import { proxyLine } from '../proxy/log.js';
import { type RunningProxy, startProxy } from '../proxy/server.js';
import { type ProxyFlags, type ProxySettings, resolveProxySettings } from '../proxy/settings.js';
import {
  createProxyToken,
  ProxyTokenCheck,
  readProxyTokens,
  revokeProxyToken,
  tokensPath,
} from '../proxy/tokens.js';
import { safeText } from '../render/safe-text.js';
import { limitHeapGrowth } from '../server/heap.js';
import { listenReason, stopRequested } from '../server/lifecycle.js';
import { parsePort, parseServeHost } from './serve.js';

/** As `serve`'s, and 0: any free port, said in the banner (scripts and tests that run several). */
function parseProxyPort(value: string): number {
  if (value.trim() === '0') return 0;
  try {
    return parsePort(value);
  } catch {
    throw new InvalidArgumentError('--port must be between 0 and 65535.');
  }
}

/** What tests inject when they run `proxy` in-process (no real signals, short deadlines, their own clock). */
export interface ProxyHooks {
  /** Aborting it stops the proxy; default: the first SIGINT, SIGTERM or SIGHUP. */
  stop?: AbortSignal;
  headDeadlineMs?: number;
  readIdleMs?: number;
  bodyDeadlineMs?: number;
  now?: () => number;
  /** How soon a ledger row that could not be written is tried again; default 1 s. */
  ledgerRetryMs?: number;
  onListening?: (proxy: RunningProxy, ledger: Ledger) => void;
}

export type ProxyIo = CliIo & { proxyHooks?: ProxyHooks };

const MiB = 1024 * 1024;
/** PEM files are a few KiB; a larger one is not a certificate. */
const TLS_FILE_LIMIT = 1024 * 1024;

const PROXY_HELP = `
Cursor → Settings → Models: set "Override OpenAI Base URL" to this proxy's public https URL (with /v1), and
the OpenAI API key field to a proxy token from \`codexbar proxy token create\`. Cursor's servers, not the app,
call the URL, so it must be reachable over public HTTPS: a tunnel to the loopback port, or a server with TLS
(README, "BYOK spend"). The provider key comes from CODEXBAR_PROXY_UPSTREAM_KEY (or the config's
proxy.upstreamKey) and never leaves this machine; with --pass-key the client's own key is forwarded instead.

Routes: POST /chat/completions, POST /responses, GET /models (also under /v1/), GET /health.
Each chat or responses request adds one row to <data dir>/codexbar/byok.sqlite: counts and hashes only.

Examples:
  codexbar proxy token create --label cursor
  CODEXBAR_PROXY_UPSTREAM_KEY=sk-… codexbar proxy --upstream https://api.openai.com/v1
  codexbar proxy --upstream https://openrouter.ai/api/v1 --host 0.0.0.0 --tls-cert cert.pem --tls-key key.pem
  codexbar cost --source byok --by conversation`;

export function register(program: Command, io: ProxyIo, setExitCode: (code: number) => void): void {
  const proxy = program
    .command('proxy')
    .description("an OpenAI-compatible pass-through for Cursor BYOK that records each request's usage")
    .option(
      '--upstream <url>',
      'the provider base URL, e.g. https://api.openai.com/v1 (fixed: clients cannot change it)',
    )
    .addOption(
      new Option('--host <address>', "address to bind: 'localhost' or IPv4; non-loopback needs TLS")
        .default('127.0.0.1')
        .argParser(parseServeHost),
    )
    .addOption(
      new Option('--port <port>', 'TCP port (0-65535; 0 takes a free one)')
        .default(8787)
        .argParser(parseProxyPort),
    )
    .option('--pass-key', "forward the client's own Bearer key instead of proxy tokens (loopback only)")
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (with --tls-key)')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .option(
      '--behind-tls-proxy',
      'a tunnel or reverse proxy in front terminates TLS (allows a non-loopback --host)',
    )
    .addOption(
      new Option('--max-streams <n>', 'upstream requests at once; more wait their turn')
        .default(64)
        .argParser(wholeNumber('--max-streams', 1, 4096)),
    )
    .addOption(
      new Option('--max-body <MiB>', 'the largest request body, in MiB (past it: 413)')
        .default(32)
        .argParser(wholeNumber('--max-body', 1, 1024)),
    )
    .addOption(
      new Option(
        '--upstream-timeout <duration>',
        "the wait for the upstream's answer to start (past it: 504)",
      )
        .default(300_000, '300s')
        .argParser(duration('--upstream-timeout', { min: 1, max: 86_400 })),
    )
    .addOption(
      new Option(
        '--idle-timeout <duration>',
        'the longest silence inside an answer (past it the answer is cut)',
      )
        .default(300_000, '300s')
        .argParser(duration('--idle-timeout', { min: 1, max: 86_400 })),
    )
    .addOption(
      new Option('--shutdown-grace <duration>', 'on SIGTERM, how long answers in flight may finish')
        .default(30_000, '30s')
        .argParser(duration('--shutdown-grace', { min: 0, max: 3_600 })),
    )
    .option('-v, --verbose', 'one line per request: model, tokens, status, time (never a header or body)')
    .addHelpText('after', PROXY_HELP)
    .action(async (flags: RawProxyFlags) => setExitCode(await proxyCommand(flags, io)));

  const token = proxy
    .command('token')
    .description('the proxy tokens Cursor is given (only their hashes are kept)');
  addOutputOptions(
    token
      .command('create')
      .description('make a proxy token and print it once')
      .option('--label <name>', 'what the token is for', 'cursor'),
  ).action(async (flags: OutputFlags & { label: string }) => setExitCode(await createToken(flags, io)));
  addOutputOptions(token.command('list').description('the proxy tokens: id, label, created')).action(
    async (flags: OutputFlags) => setExitCode(await listTokens(flags, io)),
  );
  addOutputOptions(
    token
      .command('revoke')
      .description('remove a proxy token; a running proxy stops taking it')
      .argument('<id>'),
  ).action(async (id: string, flags: OutputFlags) => setExitCode(await revokeToken(id, flags, io)));
}

interface RawProxyFlags extends Omit<ProxyFlags, 'maxBody'> {
  maxBody: number;
  verbose?: boolean;
}

const TEXT_OUTPUT: OutputMode = { json: false, pretty: false, jsonOnly: false };

async function proxyCommand(flags: RawProxyFlags, io: ProxyIo): Promise<number> {
  const hooks = io.proxyHooks ?? {};
  const dataDir = authPaths(io).codexbarDataDir;
  let settings: ProxySettings;
  let tokens: ProxyTokenCheck | undefined;
  let tls: { cert: Buffer; key: Buffer } | undefined;
  let ledger: Ledger;
  try {
    const config = await loadConfig(io);
    settings = resolveProxySettings({ ...flags, maxBody: flags.maxBody * MiB }, io.env, config.proxy);
    if (settings.auth.mode === 'tokens') {
      tokens = new ProxyTokenCheck(tokensPath(dataDir), hooks.now ?? Date.now, (line) =>
        io.stderr.write(`${line}\n`),
      );
      await tokens.load();
      if (tokens.count === 0) {
        throw new ConfigError(
          'There is no proxy token yet, so no client could use this proxy.',
          'Run `codexbar proxy token create` and give the token to Cursor as its OpenAI API key.',
        );
      }
    }
    if (settings.tls)
      tls = {
        cert: readPem(settings.tls.certFile, '--tls-cert'),
        key: readPem(settings.tls.keyFile, '--tls-key'),
      };
    ledger = await openLedger(
      ledgerPath(dataDir),
      (line) => io.stderr.write(`${line}\n`),
      hooks.ledgerRetryMs,
    );
  } catch (error) {
    return reportFailure(io, error, TEXT_OUTPUT);
  }

  const dispatcher = createDispatcher(proxySettings(io.env));
  let proxy: RunningProxy;
  try {
    proxy = await startProxy(settings, {
      ledger,
      tokens,
      tls,
      dispatcher,
      now: hooks.now,
      headDeadlineMs: hooks.headDeadlineMs,
      readIdleMs: hooks.readIdleMs,
      bodyDeadlineMs: hooks.bodyDeadlineMs,
      onRequest: flags.verbose ? (line) => io.stderr.write(`${proxyLine(line)}\n`) : undefined,
    });
  } catch (error) {
    ledger.close();
    await dispatcher.close();
    const reason = new Error(`Could not listen on ${settings.host}:${settings.port}: ${listenReason(error)}`);
    return reportFailure(io, reason, TEXT_OUTPUT);
  }

  const auth = settings.auth.mode === 'tokens' ? `proxy tokens: ${tokens?.count}` : 'passing the client key';
  io.stderr.write(`codexbar proxy listening on ${proxy.url} → ${settings.upstream.base} (${auth})\n`);
  io.stderr.write(`Recording usage in ${displayPath(ledgerPath(dataDir), io)}\n`);
  hooks.onListening?.(proxy, ledger);
  // Tests run the proxy inside their own process (with hooks); the real one owns its process.
  const stopHeapLimits = io.proxyHooks === undefined ? limitHeapGrowth() : undefined;
  await stopRequested(hooks.stop);
  await proxy.stop();
  stopHeapLimits?.();
  ledger.close();
  await dispatcher.destroy();
  return 0;
}

function readPem(file: string, flag: string): Buffer {
  const read = readTextFileSync(file, TLS_FILE_LIMIT);
  if (read.kind !== 'ok') {
    throw new ArgumentError(`${flag} ${file}: ${read.kind === 'missing' ? 'no such file' : read.reason}.`);
  }
  return Buffer.from(read.text, 'utf8');
}

function modeOf(flags: OutputFlags): OutputMode {
  const options = outputOptions(flags);
  return { json: options.format === 'json', pretty: options.pretty, jsonOnly: options.jsonOnly };
}

async function createToken(flags: OutputFlags & { label: string }, io: CliIo): Promise<number> {
  const mode = modeOf(flags);
  try {
    const label = flags.label.trim();
    if (label === '' || label.length > 100 || /[\u0000-\u001f\u007f-\u009f]/.test(label)) {
      throw new ArgumentError('--label must be 1 to 100 printable characters.');
    }
    const file = tokensPath(authPaths(io).codexbarDataDir);
    const { token, entry } = await createProxyToken(file, label, io.now());
    if (mode.json) {
      io.stdout.write(`${encodeJson({ ...entryRow(entry), token }, { pretty: mode.pretty })}\n`);
    } else {
      io.stdout.write(`${token}\n`);
      io.stderr.write(
        `Created proxy token ${entry.id} (${safeText(entry.label)}). It is shown only now: give it to Cursor as its OpenAI API key.\n`,
      );
    }
    return 0;
  } catch (error) {
    return reportFailure(io, error, mode);
  }
}

function entryRow(entry: { id: string; label: string; createdAt: string }) {
  return { id: entry.id, label: entry.label, createdAt: entry.createdAt };
}

async function listTokens(flags: OutputFlags, io: CliIo): Promise<number> {
  const mode = modeOf(flags);
  try {
    const entries = await readProxyTokens(tokensPath(authPaths(io).codexbarDataDir));
    if (mode.json) {
      io.stdout.write(`${encodeJson(entries.map(entryRow), { pretty: mode.pretty })}\n`);
    } else if (entries.length === 0) {
      io.stdout.write('No proxy tokens. Create one with `codexbar proxy token create`.\n');
    } else {
      const lines = entries.map((entry) => `${entry.id}  ${entry.createdAt}  ${safeText(entry.label)}`);
      io.stdout.write(`${['id        created               label', ...lines].join('\n')}\n`);
    }
    return 0;
  } catch (error) {
    return reportFailure(io, error, mode);
  }
}

async function revokeToken(id: string, flags: OutputFlags, io: CliIo): Promise<number> {
  const mode = modeOf(flags);
  try {
    if (!/^[0-9a-f]{8}$/.test(id))
      throw new ArgumentError('A proxy token id is 8 hex digits (see `codexbar proxy token list`).');
    const found = await revokeProxyToken(tokensPath(authPaths(io).codexbarDataDir), id);
    if (!found) throw new ArgumentError(`No proxy token ${id}.`, 'See `codexbar proxy token list`.');
    if (mode.json) io.stdout.write(`${encodeJson({ revoked: id }, { pretty: mode.pretty })}\n`);
    else io.stdout.write(`Revoked proxy token ${id}.\n`);
    return 0;
  } catch (error) {
    return reportFailure(io, error, mode);
  }
}
