/**
 * What every MCP tool call shares: the process's io (its stdout never used: the protocol owns it), the
 * options a plain `codexbar usage` run would have, the log (`mcp --verbose`, on stderr), and how old a
 * cached usage snapshot may be. A call runs as one token account, the one it names or the ordinary ladder's.
 */
import type { CliIo } from '../cli/io.js';
import { type SharedOptions, sharedOptions } from '../cli/options.js';
import type { CursorTarget } from '../session/cursor-session.js';
import { type AccountOutcome, forEachAccount } from '../session/per-account.js';

export interface McpContext {
  io: CliIo;
  /** `[cursor] …` lines, for `mcp --verbose`; never given a credential. */
  log: (line: string) => void;
  /** A usage snapshot at most this old (milliseconds) answers without a request. */
  maxAgeMs: number;
}

/** The options of a plain run: auto source, no manual cookie, no prompt. */
export function toolOptions(overrides: Partial<SharedOptions> = {}): SharedOptions {
  return { ...sharedOptions({ provider: 'cursor', color: false }), ...overrides };
}

/**
 * Runs `perform` as the token account `account` names (or the ordinary ladder's when absent), as
 * `--account <label>` does: a label no account has is the CLI's selection error, thrown.
 */
export async function asAccount<V>(
  context: McpContext,
  options: SharedOptions,
  account: string | undefined,
  perform: (target: CursorTarget, log: (line: string) => void) => Promise<V>,
): Promise<AccountOutcome<V>> {
  const flags = account === undefined ? {} : { account };
  const [outcome] = await forEachAccount(context.io, options, flags, context.log, perform);
  // One selection always gives one outcome: one named account, the active one, or the ladder.
  return outcome as AccountOutcome<V>;
}
