import type { Command } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import type { CliIo } from '../cli/io.js';
import { maxAgeOption, outputOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { stopRequested } from '../server/lifecycle.js';

const MCP_EXAMPLES = `
Tools: cursor_usage, cursor_cost, cursor_budget_check, cursor_models (each takes an optional account).

Examples:
  codexbar mcp                               what an MCP host runs (stdin and stdout carry the protocol)
  claude mcp add codexbar -- codexbar mcp    add it to Claude Code
  codexbar mcp --max-age 5m --verbose        usage at most 5 minutes old; log each call on stderr`;

/** `usage`'s snapshot at most a minute old by default: an agent's loop costs cursor.com one fetch a minute. */
const DEFAULT_MAX_AGE_MS = 60_000;

export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  program
    .command('mcp')
    .description('an MCP server over stdio for coding agents: usage, cost, a budget check and models')
    .addOption(
      maxAgeOption(
        DEFAULT_MAX_AGE_MS,
        'answer usage from a cached snapshot at most this old (0: always live)',
      ),
    )
    .option('-v, --verbose', 'log which credential and cache each call used, on stderr')
    .addHelpText('after', MCP_EXAMPLES)
    .action(async (flags: McpFlags) => setExitCode(await mcpCommand(flags, io)));
}

interface McpFlags {
  /** Milliseconds. */
  maxAge: number;
  verbose?: boolean;
}

/**
 * `codexbar mcp`: serves until the host closes stdin or a stop signal comes, then exits 0. stdout carries only
 * the protocol (docs/invariants.md, "Servers safe by default"): the tools get an io whose stdout is stderr, so nothing they write can corrupt
 * it, and every log line goes to stderr.
 */
async function mcpCommand(flags: McpFlags, io: CliIo): Promise<number> {
  const log = new Reporter(io, outputOptions({ color: false, verbose: flags.verbose })).verbose;
  const toolIo: CliIo = { ...io, stdout: io.stderr, stdin: undefined };
  // The SDK and the tools load only for a run of `mcp`, never for help or completion, which register every command.
  const [{ createMcpServer }, { LineTransport }] = await Promise.all([
    import('../mcp/server.js'),
    import('../mcp/line-transport.js'),
  ]);
  const server = createMcpServer({ io: toolIo, log, maxAgeMs: flags.maxAge }, pkg.version);
  const transport = new LineTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  log(`[mcp] codexbar ${pkg.version} serving MCP on stdio`);
  await Promise.race([closed, stopRequested(undefined)]);
  await server.close();
  return 0;
}
