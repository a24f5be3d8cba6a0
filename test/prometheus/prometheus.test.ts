/**
 * `/metrics` scraped by a real Prometheus server: a PromQL query through its HTTP API returns the plan ratio
 * `usage --json` shows, and `promtool` accepts (and unit-tests) the example rules in docs/prometheus/.
 *
 * Needs Debian's `prometheus` package (the `prometheus` and `promtool` binaries). Without it the tests are
 * skipped and say so; .ci/run installs it where apt-get can and runs this file again with
 * CODEXBAR_REQUIRE_PROMETHEUS=1, which turns a missing Prometheus into a failure.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { freePort, type ServeHarness, startServeHarness } from '../helpers/serve.js';

const has = (program: string) => spawnSync(program, ['--version'], { stdio: 'ignore' }).status === 0;
const hasPrometheus = has('prometheus') && has('promtool');
if (!hasPrometheus && process.env.CODEXBAR_REQUIRE_PROMETHEUS === '1') {
  throw new Error(
    'prometheus and promtool are required here (CODEXBAR_REQUIRE_PROMETHEUS=1) but were not found',
  );
}
const title = hasPrometheus
  ? '/metrics in a real Prometheus'
  : '/metrics in a real Prometheus — SKIPPED: prometheus is not installed (apt-get install prometheus; .ci/run does)';

const RULES = path.join(repoRoot, 'docs', 'prometheus');

interface QueryAnswer {
  status: string;
  data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}

describe.skipIf(!hasPrometheus)(title, () => {
  let serve: ServeHarness;
  let prometheus: ChildProcess;
  let dir: string;
  let api: string;
  let log = '';

  beforeAll(async () => {
    serve = await startServeHarness();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-prometheus-'));
    const config = path.join(dir, 'prometheus.yml');
    fs.writeFileSync(
      config,
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: codexbar',
        '    scrape_interval: 1s',
        '    scrape_timeout: 1s',
        '    static_configs:',
        `      - targets: ['127.0.0.1:${serve.server.port}']`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    prometheus.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
    });
  });

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await serve?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The query's samples, once it has any: Prometheus needs a moment to start and a scrape to land. */
  async function query(promql: string, limitMs = 15_000): Promise<QueryAnswer['data']['result']> {
    const end = performance.now() + limitMs;
    for (;;) {
      try {
        const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
        const answer = (await response.json()) as QueryAnswer;
        if (answer.status === 'success' && answer.data.result.length > 0) return answer.data.result;
      } catch {
        // Not listening yet.
      }
      if (performance.now() > end) throw new Error(`no samples for ${promql} in ${limitMs} ms; log:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('a PromQL query returns the plan ratio `usage --json` shows, labelled by account and window', async () => {
    const { code, stdout } = await serve.run(['usage', '--json']);
    expect(code).toBe(0);
    const [row] = JSON.parse(stdout) as Array<{ usage: { primary: { usedPercent: number } } }>;
    const result = await query('codexbar_plan_used_ratio{window="primary"}');
    expect(result).toHaveLength(1);
    expect(result[0]?.metric).toMatchObject({ job: 'codexbar', account: 'default', window: 'primary' });
    expect(Number(result[0]?.value[1])).toBe((row?.usage.primary.usedPercent ?? Number.NaN) / 100);
    const [up] = await query('up{job="codexbar"}');
    expect(up?.value[1]).toBe('1');
  });

  it('every query of the example Grafana dashboard is valid PromQL, and those on the plan have samples', async () => {
    const dashboard = JSON.parse(
      fs.readFileSync(path.join(repoRoot, 'docs', 'grafana', 'codexbar-dashboard.json'), 'utf8'),
    ) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
    await query('codexbar_plan_used_ratio');
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    expect(exprs.length).toBeGreaterThan(8);
    for (const expr of exprs) {
      const promql = expr
        .replaceAll('$account', '.*')
        .replaceAll('$basis', 'api_rate')
        .replaceAll('$__rate_interval', '1m');
      const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const answer = (await response.json()) as QueryAnswer & { error?: string };
      expect(answer.status, `${expr}: ${answer.error}`).toBe('success');
      if (expr.includes('codexbar_plan_used_ratio'))
        expect(answer.data.result.length, expr).toBeGreaterThan(0);
    }
  });

  it('promtool accepts the example rules, and their unit tests pass', () => {
    const check = spawnSync('promtool', ['check', 'rules', path.join(RULES, 'codexbar-rules.yml')], {
      encoding: 'utf8',
    });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('SUCCESS: 4 rules found');
    const unit = spawnSync('promtool', ['test', 'rules', 'codexbar-rules.test.yml'], {
      cwd: RULES,
      encoding: 'utf8',
    });
    expect(unit.status, unit.stdout + unit.stderr).toBe(0);
  });
});
