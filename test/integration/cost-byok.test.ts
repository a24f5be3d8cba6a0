/**
 * `cost --source byok` end to end: real ledger files written by the proxy's own writer (src/proxy/ledger.ts)
 * in the scene's data directory, read in-process by the CLI. The figures match the rows; a provider's cost
 * wins and is labelled; estimates come from the price table; an unknown model is unpriced, never $0;
 * requests without usage are said and kept out of a total that says so; nothing is created or changed by the
 * read; and the cross-check compares with cursor.com's `USER_API_KEY` events.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { retainSqliteObjects } from '../../src/local/sqlite.js';
import { type LedgerRow, openLedger } from '../../src/proxy/ledger.js';
import type { FakeAccount, UsageEventJson } from '../fake-cursor/types.js';
import type { CliResult } from '../helpers/cli.js';
import { MANUAL_COOKIE, MANUAL_COOKIE_VALUE, onlyRow } from '../helpers/cost-cli.js';
import { costOutputSchema } from '../helpers/json-rows/cost.js';
import { openScene } from '../helpers/scene.js';

retainSqliteObjects(Database);

const NOW = new Date('2026-11-30T12:00:00Z');
const CONV_A = 'a'.repeat(32);
const CONV_B = '0123456789abcdef0123456789abcdef';

function request(at: string, fields: Partial<LedgerRow> = {}): LedgerRow {
  return {
    startedAt: Date.parse(at),
    durationMs: 1200,
    upstreamHost: 'api.openai.com',
    route: 'chat',
    model: 'gpt-4.1',
    stream: true,
    status: 200,
    outcome: 'completed',
    ...fields,
  };
}

/** The rows most tests read: one of each kind of figure. */
const ROWS: LedgerRow[] = [
  // 800k input at $2/M + 200k cache reads at $0.5/M + 100k output at $8/M = $2.50, estimated.
  request('2026-11-29T10:00:00Z', {
    usage: { promptTokens: 1_000_000, cachedTokens: 200_000, completionTokens: 100_000 },
    conversation: CONV_A,
  }),
  // The provider's own cost wins over the list price.
  request('2026-11-30T09:00:00Z', {
    upstreamHost: 'openrouter.ai',
    model: 'openai/gpt-4.1',
    usage: {
      promptTokens: 5000,
      cachedTokens: 1000,
      cacheWriteTokens: 500,
      completionTokens: 300,
      providerCostUSD: 0.0123,
    },
    conversation: CONV_B,
  }),
  // No price-table row: unpriced, never $0.
  request('2026-11-30T10:00:00Z', {
    model: 'mystery-model-x',
    usage: { promptTokens: 100, completionTokens: 50 },
  }),
  // Aborted before the provider reported its usage.
  request('2026-11-30T11:00:00Z', { outcome: 'client-aborted', status: 200, conversation: CONV_A }),
  // Cut after its usage: partial, counted as seen (1000 × $2/M + 10 × $8/M = $0.00208).
  request('2026-11-28T08:00:00Z', {
    outcome: 'upstream-cut',
    usage: { promptTokens: 1000, completionTokens: 10 },
    conversation: CONV_A,
  }),
  // Cache reads above the prompt: skipped and counted.
  request('2026-11-29T12:00:00Z', { usage: { promptTokens: 1000, cachedTokens: 2000, completionTokens: 5 } }),
];

interface ByokRunOptions {
  args: readonly string[];
  rows?: LedgerRow[];
  /** Writes the ledger file itself instead of `rows` (null: no ledger at all). */
  ledger?: ((file: string) => void | Promise<void>) | null;
  accounts?: FakeAccount[];
  /** CODEXBAR_CURSOR_COOKIE; null sends none. Default MANUAL_COOKIE. */
  cookie?: string | null;
  /** Runs after the CLI, before the scene goes. */
  after?: (dataDir: string, home: string) => void;
  /** Keeps the ledger open, as a running proxy does, while the CLI reads it. */
  proxyRunning?: boolean;
  stdoutTTY?: { columns: number };
}

async function byok(options: ByokRunOptions): Promise<CliResult> {
  const cookie = options.cookie === undefined ? MANUAL_COOKIE : options.cookie;
  const scene = openScene({ now: NOW, frozen: true, env: { CODEXBAR_CURSOR_COOKIE: cookie ?? undefined } });
  try {
    const dataDir = path.join(scene.home, '.local', 'share', 'codexbar');
    const file = path.join(dataDir, 'byok.sqlite');
    let open: { close(): void } | undefined;
    if (options.ledger === undefined) {
      const ledger = await openLedger(file, () => {});
      for (const row of options.rows ?? ROWS) ledger.record(row);
      if (options.proxyRunning) open = ledger;
      else ledger.close();
    } else if (options.ledger !== null) {
      await options.ledger(file);
    }
    await scene.serve(options.accounts ?? []);
    try {
      const result = await scene.run(['cost', '--source', 'byok', ...options.args], {
        stdoutTTY: options.stdoutTTY,
      });
      options.after?.(dataDir, scene.home);
      return result;
    } finally {
      open?.close();
    }
  } finally {
    await scene.close();
  }
}

type Json = Record<string, unknown>;

async function byokRow(args: readonly string[], options: Omit<ByokRunOptions, 'args'> = {}) {
  const result = await byok({ ...options, args: ['--json', '--no-cross-check', ...args] });
  expect(result.code, result.stderr).toBe(0);
  return onlyRow(result) as Json & {
    byok: Json & { crossCheck?: Json };
    byModel: Json[];
    groups?: (Json & { key: string; models: Json[] })[];
  };
}

describe('cost --source byok: the figures are the ledger rows', () => {
  it('sums tokens per model, with the provider cost winning, list-price estimates and unknown models unpriced', async () => {
    const row = await byokRow(['--days', '7']);
    expect(row.source).toBe('byok');
    const byModel = Object.fromEntries(row.byModel.map((model) => [model.modelName, model]));
    expect(byModel['gpt-4.1']).toMatchObject({
      inputTokens: 800_000 + 1000,
      cacheReadTokens: 200_000,
      cacheCreationTokens: 0,
      outputTokens: 100_010,
      totalTokens: 1_101_010,
      requests: 2,
      requestCounts: { reported: 0, estimated: 2, unpriced: 0 },
    });
    expect(byModel['gpt-4.1']!.apiRateCostUSD).toBeCloseTo(2.5 + 0.00208, 12);
    expect(byModel['openai/gpt-4.1']).toMatchObject({
      inputTokens: 3500,
      cacheReadTokens: 1000,
      cacheCreationTokens: 500,
      outputTokens: 300,
      totalTokens: 5300,
      requestCounts: { reported: 1, estimated: 0, unpriced: 0 },
    });
    expect(byModel['openai/gpt-4.1']!.apiRateCostUSD).toBeCloseTo(0.0123, 12);
    // Unpriced: its cost is omitted, never 0.
    expect(byModel['mystery-model-x']).toMatchObject({
      totalTokens: 150,
      requestCounts: { reported: 0, estimated: 0, unpriced: 1 },
    });
    expect(byModel['mystery-model-x']).not.toHaveProperty('apiRateCostUSD');
    expect(row.apiRateCostUSD).toBeCloseTo(2.5 + 0.00208 + 0.0123, 12);
    expect(row.last30DaysTokens).toBe(1_101_010 + 5300 + 150);
    expect(row).not.toHaveProperty('meteredCostUSD');
    expect(row.requestCounts).toEqual({ reported: 1, estimated: 2, unpriced: 1, skipped: 1 });
    expect(row.byok).toEqual({
      requests: 5,
      partialRequests: 2,
      requestsWithoutUsage: 1,
      skippedRows: 1,
      providerReportedRequests: 1,
      totalsComplete: false,
    });
    expect((row.byKind as Record<string, Json>).byok).toMatchObject({ requests: 5, totalTokens: 1_106_460 });
  });

  it('labels the text as the BYOK ledger, says how each figure was priced, and never shows an unknown price as $0', async () => {
    const result = await byok({ args: ['--days', '7', '--no-cross-check', '--by', 'model'] });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/^BYOK Cost \(codexbar proxy ledger\)\n/);
    expect(out).toContain("From the codexbar proxy's ledger, ~/.local/share/codexbar/byok.sqlite:");
    expect(out).toContain('Requests: 1 provider-reported · 2 estimated at list price · 1 unpriced');
    expect(out).toContain('had no cost from the provider and were estimated at list price');
    expect(out).toContain('had no known price (mystery-model-x)');
    // The total says what it leaves out.
    expect(out).toContain(
      'Last 7 days: $2.51 · 1.1M tokens (not counting 1 request without usage and 1 skipped row)',
    );
    expect(out).toContain(
      'Note: 1 request without usage (aborted before the provider reported it): not in these totals.',
    );
    expect(out).toContain('Note: 2 partial requests (the answer did not end cleanly)');
    expect(out).toContain('Note: 1 ledger row skipped');
    expect(out).not.toContain('Cursor');
    expect(out).not.toContain('By kind');
    const mystery = out.split('\n').find((line) => line.startsWith('│ mystery-model-x'));
    expect(mystery).toContain('—');
    expect(mystery).not.toContain('$0.00');
  });

  it('a complete window says nothing is left out', async () => {
    const rows = [ROWS[0]!, ROWS[1]!];
    const row = await byokRow(['--days', '7'], { rows });
    expect(row.byok).toMatchObject({
      requests: 2,
      requestsWithoutUsage: 0,
      skippedRows: 0,
      totalsComplete: true,
    });
    expect(row.requestCounts).toEqual({ reported: 1, estimated: 1, unpriced: 0 });
    const text = await byok({ args: ['--days', '7', '--no-cross-check'], rows });
    expect(text.stdout).toContain('Last 7 days: $2.51 · 1.1M tokens\n');
    expect(text.stdout).not.toMatch(/without usage|skipped|partial/);
  });

  it('an empty window, and a window of requests without usage only', async () => {
    const empty = await byok({ args: ['--days', '1', '--no-cross-check'], rows: [ROWS[0]!] });
    expect(empty.stdout).toContain('No BYOK requests in this window.');
    const aborted = await byok({ args: ['--days', '1', '--no-cross-check'], rows: [ROWS[3]!] });
    expect(aborted.stdout).toContain('No BYOK requests with usage in this window.');
    expect(aborted.stdout).toContain('Note: 1 request without usage');
    expect(aborted.stdout).toContain('(not counting 1 request without usage)');
  });

  it('control characters in a model name or a conversation key from the ledger never reach the terminal', async () => {
    const rows = [
      request('2026-11-30T09:00:00Z', {
        model: 'evil\u001b[31mred\u0007',
        usage: { promptTokens: 10, completionTokens: 5 },
        conversation: '\u001b]0;pwned\u0007',
      }),
    ];
    for (const by of ['model', 'day', 'conversation']) {
      const result = await byok({
        args: ['--days', '1', '--no-cross-check', '--by', by, '--breakdown'],
        rows,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout, by).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
      expect(result.stdout, by).toContain(by === 'conversation' ? '\\x1b]0;pwne' : 'evil\\x1b[31mred\\x07');
      const csv = await byok({
        args: ['--days', '1', '--no-cross-check', '--by', by, '--format', 'csv'],
        rows,
      });
      expect(csv.stdout.replace(/\r\n/g, '\n'), by).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    }
  });
});

describe('cost --source byok: windows', () => {
  const edges = [
    request('2026-11-09T23:59:59.999Z', { usage: { promptTokens: 1, completionTokens: 0 } }),
    request('2026-11-10T00:00:00.000Z', { usage: { promptTokens: 10, completionTokens: 0 } }),
    request('2026-11-20T23:59:59.999Z', { usage: { promptTokens: 100, completionTokens: 0 } }),
    request('2026-11-21T00:00:00.000Z', { usage: { promptTokens: 1000, completionTokens: 0 } }),
  ];

  it('--since/--until: a row at the first midnight is in, one at the midnight after --until is out', async () => {
    const row = await byokRow(['--since', '2026-11-10', '--until', '2026-11-20'], { rows: edges });
    expect(row.last30DaysTokens).toBe(110);
    expect(row.byok).toMatchObject({ requests: 2 });
    expect((row.daily as Json[]).map((day) => day.date)).toEqual(['2026-11-10', '2026-11-20']);
  });

  it('--days N: from the local midnight N − 1 days ago, in --timezone', async () => {
    expect((await byokRow(['--days', '21'], { rows: edges })).last30DaysTokens).toBe(1110);
    expect((await byokRow(['--days', '22'], { rows: edges })).last30DaysTokens).toBe(1111);
    // In Berlin (UTC+1) the 23:59:59.999Z row is on the 21st; --days 21 starts at 2026-11-09T23:00Z.
    const berlin = await byokRow(['--days', '21', '--timezone', 'Europe/Berlin'], { rows: edges });
    expect(berlin.last30DaysTokens).toBe(1111);
    expect((berlin.daily as Json[]).map((day) => day.date)).toEqual(['2026-11-10', '2026-11-21']);
  });
});

/** RFC 4180 fields of one line (quotes doubled inside quoted fields). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

const FIGURES = [
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheCreationTokens',
  'totalTokens',
  'apiRateCostUSD',
  'meteredCostUSD',
  'requests',
] as const;

/** A JSON figure as the CSV writes it: empty when omitted, 15 significant digits. */
function asCsv(value: unknown): string {
  if (value === undefined) return '';
  const number = value as number;
  return Number.isInteger(number) ? String(number) : String(Number(number.toPrecision(15)));
}

describe('cost --source byok: --by groups, JSON and CSV agree', () => {
  it.each(['day', 'week', 'month', 'model', 'conversation'])(
    '--by %s: the CSV parses back to the JSON numbers',
    async (by) => {
      const args = ['--days', '30', '--by', by];
      const row = await byokRow(args);
      expect(row.groupBy).toBe(by);
      const groups = row.groups!;
      expect(groups.length).toBeGreaterThan(0);
      const csv = await byok({ args: [...args, '--no-cross-check', '--format', 'csv'] });
      expect(csv.code, csv.stderr).toBe(0);
      const [header, ...lines] = csv.stdout.trimEnd().split('\r\n').map(csvFields);
      const keyColumns = by === 'model' ? 1 : 2;
      expect(header!.slice(keyColumns)).toEqual([...FIGURES]);
      const expected =
        by === 'model'
          ? groups.map((group) => [group.key, ...FIGURES.map((figure) => asCsv(group[figure]))])
          : groups.flatMap((group) =>
              group.models.map((model) => [
                group.key,
                model.modelName as string,
                ...FIGURES.map((figure) => asCsv(model[figure])),
              ]),
            );
      expect(lines).toEqual(expected);
      // The groups add up to the window.
      const sum = (figure: string) =>
        groups.reduce((total, group) => total + ((group[figure] as number) ?? 0), 0);
      expect(sum('totalTokens')).toBe(row.last30DaysTokens);
      expect(sum('apiRateCostUSD')).toBeCloseTo(row.apiRateCostUSD as number, 12);
    },
  );

  it('--by conversation: one group per conversation key, (none) for requests without one, each with its models', async () => {
    const row = await byokRow(['--days', '30', '--by', 'conversation']);
    expect(row.groups!.map((group) => group.key)).toEqual([CONV_A, CONV_B, '(none)']);
    const [a, b, none] = row.groups!;
    expect(a).toMatchObject({ totalTokens: 1_101_010, requests: 2 });
    expect(a!.apiRateCostUSD).toBeCloseTo(2.50208, 12);
    expect(b).toMatchObject({ totalTokens: 5300, requests: 1, apiRateCostUSD: 0.0123 });
    expect(none).toMatchObject({ totalTokens: 150, requests: 1 });
    expect(none).not.toHaveProperty('apiRateCostUSD');
    expect(none!.models.map((model) => model.modelName)).toEqual(['mystery-model-x']);
    const text = await byok({ args: ['--days', '30', '--by', 'conversation', '--no-cross-check'] });
    expect(text.stdout).toMatch(/Conversation/);
    expect(text.stdout).toContain('aaaaaaaaaaaa…');
    expect(text.stdout).toContain('(none)');
  });

  it('--by conversation is refused without --source byok, and so is --no-cross-check', async () => {
    const scene = openScene({ now: NOW, frozen: true, env: { CODEXBAR_CURSOR_COOKIE: MANUAL_COOKIE } });
    try {
      const result = await scene.run(['cost', '--by', 'conversation']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('--by conversation applies to --source byok only.');
      const noCheck = await scene.run(['cost', '--no-cross-check']);
      expect(noCheck.code).toBe(1);
      expect(noCheck.stderr).toContain('--no-cross-check applies to --source byok only.');
      const usage = await scene.run(['usage', '--source', 'byok']);
      expect(usage.code).not.toBe(0);
      expect(usage.stderr).toContain('--source must be auto|web|cli|rpc|oauth|api.');
    } finally {
      await scene.close();
    }
  });
});

describe('cost --source byok: the ledger file', () => {
  it('a missing ledger is an error with a hint, exit 1 (text and JSON)', async () => {
    const text = await byok({ args: ['--no-cross-check'], ledger: null });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('Error: No BYOK ledger at ~/.local/share/codexbar/byok.sqlite.');
    expect(text.stderr).toContain(
      "Hint: Run `codexbar proxy` to record BYOK requests (see the README's BYOK section).",
    );
    const json = await byok({ args: ['--json', '--no-cross-check'], ledger: null });
    expect(json.code).toBe(1);
    const [row] = costOutputSchema.parse(JSON.parse(json.stdout)) as Json[];
    expect(row).toMatchObject({ source: 'byok', error: { code: 1 } });
  });

  it('the read creates and changes nothing: the data directory is the same file after it, with no -wal or -shm', async () => {
    let before: [string, number, number][] = [];
    const snapshot = (dir: string) =>
      fs
        .readdirSync(dir)
        .sort()
        .map((name): [string, number, number] => {
          const stat = fs.statSync(path.join(dir, name));
          return [name, stat.size, stat.mtimeMs];
        });
    const result = await byok({
      args: ['--no-cross-check', '--by', 'conversation'],
      ledger: async (file) => {
        const ledger = await openLedger(file, () => {});
        for (const row of ROWS) ledger.record(row);
        ledger.close();
        before = snapshot(path.dirname(file));
      },
      after: (dataDir) => expect(snapshot(dataDir)).toEqual(before),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(before.map(([name]) => name)).toEqual(['byok.sqlite']);
  });

  it('while the proxy has it open, the rows committed in its -wal are read', async () => {
    const row = await byokRow(['--days', '7'], { proxyRunning: true });
    expect(row.byok).toMatchObject({ requests: 5, skippedRows: 1 });
    expect(row.last30DaysTokens).toBe(1_106_460);
  });

  it('a ledger behind a symbolic link is refused', async () => {
    const result = await byok({
      args: ['--no-cross-check'],
      ledger: async (file) => {
        const real = path.join(path.dirname(path.dirname(file)), 'elsewhere.sqlite');
        const ledger = await openLedger(real, () => {});
        ledger.record(ROWS[0]!);
        ledger.close();
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        fs.symlinkSync(real, file);
      },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot be read: it is a symbolic link.');
  });

  it('a ledger of another format, or without a requests table, is a clear error', async () => {
    const future = await byok({
      args: ['--no-cross-check'],
      ledger: async (file) => {
        (await openLedger(file, () => {})).close();
        const db = new Database(file);
        db.pragma('user_version = 2');
        db.close();
      },
    });
    expect(future.code).toBe(1);
    expect(future.stderr).toContain('is format 2, not 1.');
    const foreign = await byok({
      args: ['--no-cross-check'],
      ledger: (file) => {
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        const db = new Database(file);
        db.exec('CREATE TABLE other (x)');
        db.pragma('user_version = 1');
        db.close();
        fs.chmodSync(file, 0o600);
      },
    });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('has no requests table.');
    const text = await byok({
      args: ['--no-cross-check'],
      ledger: (file) => {
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        fs.writeFileSync(file, 'not a database at all', { mode: 0o600 });
      },
    });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('is not a ledger: not an SQLite database.');
  });
});

function cursorEvent(at: string, kind: string, tokens: [number, number, number, number]): UsageEventJson {
  const [inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens] = tokens;
  return {
    timestamp: String(Date.parse(at)),
    model: 'gpt-4.1',
    kind,
    tokenUsage: { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens },
    chargedCents: 0,
  };
}

function cursorAccount(events: UsageEventJson[]): FakeAccount {
  return { cookies: [MANUAL_COOKIE_VALUE], events: { events } };
}

describe('cost --source byok: the cross-check with cursor.com', () => {
  const rows = [ROWS[0]!, ROWS[1]!];
  const proxyTokens = 1_100_000 + 5300;

  it("compares the proxy's tokens with Cursor's USER_API_KEY events of the window (text and JSON)", async () => {
    const accounts = [
      cursorAccount([
        cursorEvent('2026-11-30T09:00:01Z', 'USAGE_EVENT_KIND_USER_API_KEY', [3500, 300, 1000, 500]),
        cursorEvent('2026-11-30T08:00:00Z', 'USAGE_EVENT_KIND_USAGE_BASED', [9999, 9999, 0, 0]),
        cursorEvent('2026-11-29T10:00:01Z', 'USAGE_EVENT_KIND_USER_API_KEY', [780_000, 100_000, 200_000, 0]),
        // Outside the window: not compared.
        cursorEvent('2026-11-01T10:00:00Z', 'USAGE_EVENT_KIND_USER_API_KEY', [5, 5, 0, 0]),
      ]),
    ];
    const cursorTokens = 3500 + 300 + 1000 + 500 + 780_000 + 100_000 + 200_000;
    const text = await byok({ args: ['--days', '7'], rows, accounts });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'Cross-check: the proxy saw 1,105,300 tokens in 2 requests; cursor.com recorded 1,085,300 tokens in 2 BYOK requests (−1.8 %).',
    );
    const json = await byok({ args: ['--days', '7', '--json'], rows, accounts });
    expect(json.code, json.stderr).toBe(0);
    expect((onlyRow(json).byok as Json).crossCheck).toEqual({
      cursorRequests: 2,
      cursorTokens,
      proxyRequests: 2,
      proxyTokens,
    });
  });

  it('says when cursor.com recorded no BYOK requests in the window', async () => {
    const accounts = [cursorAccount([cursorEvent('2026-11-30T08:00:00Z', 'USAGE_BASED', [10, 10, 0, 0])])];
    const text = await byok({ args: ['--days', '7'], rows, accounts });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'Cross-check: the proxy saw 1,105,300 tokens in 2 requests; cursor.com recorded no BYOK requests in this window.',
    );
  });

  it('without a Cursor session, or with cursor.com failing, it is left out: one --verbose line, exit 0', async () => {
    const none = await byok({ args: ['--days', '7', '--verbose'], rows, cookie: null });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).not.toContain('Cross-check');
    expect(none.stderr).toMatch(/\[byok\] No cross-check with cursor\.com: /);
    const quiet = await byok({ args: ['--days', '7', '--json'], rows, cookie: null });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(onlyRow(quiet).byok).not.toHaveProperty('crossCheck');
    const failing = await byok({
      args: ['--days', '7', '--verbose'],
      rows,
      accounts: [{ cookies: [MANUAL_COOKIE_VALUE], events: { status: 500, json: { error: 'down' } } }],
    });
    expect(failing.code, failing.stderr).toBe(0);
    expect(failing.stdout).not.toContain('Cross-check');
    expect(failing.stderr).toMatch(/\[byok\] No cross-check with cursor\.com: .*500/);
  });

  it('--no-cross-check sends nothing to cursor.com', async () => {
    const scene = openScene({ now: NOW, frozen: true, env: { CODEXBAR_CURSOR_COOKIE: MANUAL_COOKIE } });
    try {
      const file = path.join(scene.home, '.local', 'share', 'codexbar', 'byok.sqlite');
      const ledger = await openLedger(file, () => {});
      ledger.record(ROWS[0]!);
      ledger.close();
      const fake = await scene.serve([cursorAccount([])]);
      const result = await scene.run(['cost', '--source', 'byok', '--no-cross-check']);
      expect(result.code, result.stderr).toBe(0);
      expect(fake.requests).toEqual([]);
    } finally {
      await scene.close();
    }
  });
});
