/**
 * Where `serve`'s rows come from: the config file,
 * reloaded per request and hashed into the cache key, and the same session, collect and render steps as
 * `codexbar usage --json` and `codexbar cost --json`. Every failure becomes an error row; nothing here
 * rejects once the config has loaded.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { EVENTS_ENDPOINT } from '../api/events-endpoint.js';
import type { SourceMode } from '../auth/resolver.js';
import { type CliIo, usageTimeouts } from '../cli/io.js';
import type { SharedOptions } from '../cli/options.js';
import { type AccountFlags, type SelectedAccount, selectAccounts } from '../config/accounts.js';
import { type LoadedConfig, loadConfig } from '../config/config.js';
import { collectCost } from '../cost/collect.js';
import { resolveCostWindow } from '../cost/window.js';
import { ApiError } from '../errors.js';
import { localTimeZone } from '../lib/time-zone.js';
import { type CostRow, costErrorRow, costRow } from '../render/cost-json.js';
import { type UsageRow, usageErrorRow, usageRow } from '../render/usage-json.js';
import { type CursorPrep, prepareCursor, runWithCursorSession } from '../session/cursor-session.js';
import { forEachAccount } from '../session/per-account.js';
import { labelledSnapshot } from '../usage/account-label.js';
import { collectUsage } from '../usage/collect.js';
import type { FetchOutcome, KeyedRow } from './cache.js';

/** `/cost` always reports this many days; no query parameter changes it. */
const SERVE_COST_DAYS = 30;

export interface ServeConfig {
  loaded: LoadedConfig;
  /** Keyed hash of everything in the config (and environment) that changes what a fetch returns. */
  hash: string;
  /** `enabled` for Cursor; absent means enabled. */
  enabled: boolean;
  /** The config's `source` as given (`auto` when absent): what error rows report. */
  sourceLabel: string;
  sourceMode: SourceMode;
  unsupportedSource?: string;
}

/**
 * Which token accounts a `/usage` answer is for: the query's account
 * parameters as `usage`'s flags, and the accounts they select in this request's config.
 */
export interface UsageSelection {
  flags: AccountFlags;
  /** Empty: no token account, the ordinary ladder. */
  accounts: SelectedAccount[];
  /** Part of the cache key: the selected accounts' positions (the config hash covers their content). */
  key: string;
}

export interface DataSourceOptions {
  io: CliIo;
  /** `[cursor] …` lines, for `serve --verbose`; never given a credential. */
  log?: (line: string) => void;
}

export class CursorDataSource {
  /** Made per process: the hashes mean nothing outside it and can be compared with nothing else. */
  private readonly hashKey = randomBytes(32);

  constructor(private readonly options: DataSourceOptions) {}

  private get io(): CliIo {
    return this.options.io;
  }

  /** Throws ConfigError (a 500) when the file cannot be read or decoded. */
  async loadConfig(): Promise<ServeConfig> {
    const loaded = await loadConfig(this.io);
    const cookieEnv = this.io.env.CODEXBAR_CURSOR_COOKIE;
    const source = loaded.cursor.source ?? 'auto';
    const config: ServeConfig = {
      loaded,
      hash: this.keyedHash(JSON.stringify([loaded.path, loaded.exists, loaded.cursor, cookieEnv ?? null])),
      enabled: loaded.cursor.enabled !== false,
      sourceLabel: source,
      sourceMode: source === 'web' || source === 'rpc' ? source : 'auto',
    };
    if (source === 'oauth' || source === 'api') config.unsupportedSource = source;
    return config;
  }

  /**
   * The accounts `codexbar usage` would run for with these flags, in this config. Throws
   * AccountSelectionError (`No token account labeled 'x' for cursor.`), which the route answers with 400.
   */
  selectUsage(config: ServeConfig, flags: AccountFlags = {}): UsageSelection {
    const accounts = selectAccounts(config.loaded.cursor, flags, {
      manualOverride: Boolean(this.io.env.CODEXBAR_CURSOR_COOKIE?.trim()),
    });
    return { flags, accounts, key: accounts.map((account) => account.index).join(',') || 'ladder' };
  }

  /** `codexbar usage --json`'s rows for the selection: one per account, or one from the ordinary ladder. */
  async usage(
    config: ServeConfig,
    selection: UsageSelection,
    signal: AbortSignal,
  ): Promise<FetchOutcome<UsageRow>> {
    try {
      const { options, prep } = await this.session(config);
      const outcomes = await forEachAccount(
        this.io,
        options,
        selection.flags,
        this.log,
        (target, log) =>
          runWithCursorSession(
            this.io,
            options,
            'usage',
            log,
            (client, session, api2) =>
              collectUsage({
                client,
                session,
                api2,
                sourceMode: options.sourceMode,
                now: this.io.now(),
                timeZone: localTimeZone(this.io.env),
                log: this.log,
                timeouts: usageTimeouts(this.io.timing),
                signal,
              }),
            target,
          ),
        prep,
      );
      return {
        rows: outcomes.map(({ account, ...outcome }) => {
          const label = account?.label;
          const row = outcome.ok
            ? usageRow(labelledSnapshot(outcome.value, label), this.io.now(), { account: label })
            : usageErrorRow(outcome.error, config.sourceLabel, { account: label });
          return this.keyed(row, !outcome.ok, account);
        }),
      };
    } catch (error) {
      return { rows: [this.keyed(usageErrorRow(error, config.sourceLabel), true)] };
    }
  }

  async cost(config: ServeConfig, signal: AbortSignal): Promise<FetchOutcome<CostRow>> {
    try {
      const window = resolveCostWindow({
        days: SERVE_COST_DAYS,
        timeZone: localTimeZone(this.io.env),
        now: this.io.now(),
      });
      const { options, prep } = await this.session(config);
      const report = await runWithCursorSession(
        this.io,
        options,
        'cost',
        this.log,
        (client, session) =>
          collectCost({
            client,
            cookieHeader: session.cookieHeader,
            window,
            now: () => this.io.now(),
            timeoutMs: this.io.timing.requestTimeoutMs,
            retry: { sleep: this.io.timing.sleep },
            signal,
          }),
        { prep },
      );
      return { rows: [costKeyed(config, costRow(report), false)] };
    } catch (error) {
      return {
        rows: [costKeyed(config, costErrorRow(error, this.io.now()), true)],
        cooldown: isEventsForbidden(error),
      };
    }
  }

  /** The row a waiter gets when the fetch outlives 0.8 × the request timeout. */
  usageTimeoutRows(config: ServeConfig, selection: UsageSelection): KeyedRow<UsageRow>[] {
    const accounts = selection.accounts.length > 0 ? selection.accounts : [undefined];
    return accounts.map((account) => {
      const row: UsageRow = {
        provider: 'cursor',
        account: account?.label,
        source: config.sourceLabel,
        error: { code: 1, message: 'cursor usage timed out', kind: 'provider' },
      };
      return this.keyed(row, true, account);
    });
  }

  costTimeoutRows(config: ServeConfig): KeyedRow<CostRow>[] {
    const row = costErrorRow(new Error('cursor cost refresh timed out'), this.io.now());
    return [costKeyed(config, row, true)];
  }

  private readonly log = (line: string): void => this.options.log?.(line);

  /**
   * A token account's row has a stable key, its id and a hash of its token (so
   * a different login pasted into the same entry never inherits the old one's figures).
   */
  private keyed(row: UsageRow, error: boolean, account?: SelectedAccount): KeyedRow<UsageRow> {
    const keyed: KeyedRow<UsageRow> = { row, error };
    if (account) keyed.fallbackKey = `token:${account.id}:${this.keyedHash(account.token).slice(0, 16)}`;
    return keyed;
  }

  private keyedHash(text: string): string {
    return createHmac('sha256', this.hashKey).update(text).digest('hex');
  }

  /**
   * What `codexbar usage --json` would run with, given only the config (serve has no --source or --cookie),
   * and `usage`'s preparation with the config this request read and hashed instead of a second read of the
   * file: rows are cached under that config's key, so they must not come from a file that changed in
   * between. The preparation still runs for its checks (source, base URL).
   */
  private async session(config: ServeConfig): Promise<{ options: SharedOptions; prep: CursorPrep }> {
    const options: SharedOptions = {
      format: 'json',
      jsonOnly: true,
      pretty: false,
      noColorFlag: true,
      verbose: false,
      sourceMode: config.sourceMode,
      sourceLabel: config.sourceLabel,
      unsupportedSource: config.unsupportedSource,
      cookieFlag: undefined,
      allowKeychainPrompt: false,
    };
    return { options, prep: { ...(await prepareCursor(this.io, options, this.log)), config: config.loaded } };
  }
}

/** Cost rows fall back per config and provider. */
function costKeyed(config: ServeConfig, row: CostRow, error: boolean): KeyedRow<CostRow> {
  return { row, error, fallbackKey: `cost:${config.hash}:cursor` };
}

/** A 403 from the events endpoint starts the cost cooldown. */
function isEventsForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.endpoint === EVENTS_ENDPOINT;
}
