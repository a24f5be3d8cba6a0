/**
 * `codexbar team …` in-process through `run(argv, io)`, against a fresh fake Admin API sharing one
 * virtual clock with the client's rate limiter and retries: sleeping advances the clock at once, so a
 * run that waits minutes for the rate limit takes milliseconds, and the fake counts its windows on the
 * same clock.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { startFakeAdmin } from '../fake-cursor/admin-server.js';
import type { FakeAdmin, FakeAdminOptions } from '../fake-cursor/admin-types.js';
import type { RecordedRequest } from '../fake-cursor/types.js';
import { runCli } from './cli.js';
import { teamCostOutputSchema, teamSpendOutputSchema, teamUsageOutputSchema } from './json-rows/team.js';
import { openScene } from './scene.js';

export const ADMIN_KEY = 'key_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

export class VirtualClock {
  readonly sleeps: number[] = [];
  constructor(private ms: number) {}
  now = (): number => this.ms;
  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.ms += Math.max(0, ms);
  };
}

export interface TeamRunOptions {
  now: Date;
  /** Everything but the key and the clock. */
  fake?: Omit<FakeAdminOptions, 'apiKey' | 'now'>;
  /** CURSOR_ADMIN_API_KEY; null sets none. Default ADMIN_KEY. */
  envKey?: string | null;
  /** What --api-key-stdin reads. */
  stdin?: string;
  /** A config file with this content (written as JSON unless a string). */
  config?: unknown;
  env?: Record<string, string | undefined>;
  stderrTTY?: boolean;
  /** Run in this home and keep it (a later run finds what this one cached); default a fresh one, removed. */
  home?: string;
  /** The key the fake accepts and CURSOR_ADMIN_API_KEY gives (unless envKey says otherwise). Default ADMIN_KEY. */
  apiKey?: string;
}

export interface TeamRun {
  code: number;
  stdout: string;
  stderr: string;
  requests: RecordedRequest[];
  fake: FakeAdmin;
  clock: VirtualClock;
}

export async function runTeam(args: readonly string[], options: TeamRunOptions): Promise<TeamRun> {
  const scene = options.home === undefined ? openScene() : undefined;
  const home = options.home ?? scene!.home;
  const apiKey = options.apiKey ?? ADMIN_KEY;
  const clock = new VirtualClock(options.now.getTime());
  const fake = await startFakeAdmin({ ...options.fake, apiKey, now: clock.now });
  try {
    const configPath = path.join(home, 'config.json');
    if (options.config !== undefined) {
      const text = typeof options.config === 'string' ? options.config : JSON.stringify(options.config);
      fs.writeFileSync(configPath, text, { mode: 0o600 });
    }
    const envKey = options.envKey === undefined ? apiKey : options.envKey;
    const result = await runCli(['team', ...args], {
      home,
      now: options.now,
      frozen: true,
      env: {
        CODEXBAR_CONFIG: configPath,
        CODEXBAR_CURSOR_ADMIN_BASE_URL: fake.url,
        ...(envKey === null ? {} : { CURSOR_ADMIN_API_KEY: envKey }),
        ...options.env,
      },
      stderrTTY: options.stderrTTY,
      clock,
      timing: { sleep: clock.sleep },
      stdin: options.stdin ?? '',
    });
    return { ...result, code: result.code ?? 0, requests: [...fake.requests], fake, clock };
  } finally {
    await fake.close();
    await scene?.close();
  }
}

export function requestsTo(run: TeamRun, endpoint: string): RecordedRequest[] {
  return run.requests.filter((request) => request.path === endpoint);
}

const teamOutputSchema = z.union([teamSpendOutputSchema, teamUsageOutputSchema, teamCostOutputSchema]);

/** The one JSON row of a --json run, checked against its command's documented schema (docs/json.md). */
export function jsonRow(result: { stdout: string }): Record<string, unknown> {
  const rows = JSON.parse(result.stdout) as unknown;
  if (!Array.isArray(rows) || rows.length !== 1)
    throw new Error(`expected one JSON row, got: ${result.stdout}`);
  teamOutputSchema.parse(rows);
  return rows[0] as Record<string, unknown>;
}

/** The key must appear nowhere a user or a log could see it. */
export function expectNoKey(run: { stdout: string; stderr: string }, key = ADMIN_KEY): void {
  for (const [name, text] of [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
  ] as const) {
    if (text.includes(key) || text.includes(Buffer.from(`${key}:`).toString('base64'))) {
      throw new Error(`the Admin API key leaked into ${name}`);
    }
  }
}
