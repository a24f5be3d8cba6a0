import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeAccount } from '../fake-cursor/server.js';
import { proAccount } from '../helpers/accounts.js';
import { promptScene } from '../helpers/prompt.js';
import { type Scene, useScene } from '../helpers/scene.js';
import { serveWorkBrokenPersonal, tokenAccountKey } from '../helpers/token-accounts.js';

/** `codexbar alert`: thresholds sent once per billing cycle, over real notifier programs and a real webhook. */

interface Plan {
  total: number;
  auto: number;
  api: number;
  cycleEnd: string;
  onDemandCents: number;
}

/** What the fake's usage-summary answers for account A: changed by a test between runs. */
let plan: Plan;

const summary = () => ({
  json: {
    billingCycleStart: '2026-11-15T00:00:00.000Z',
    billingCycleEnd: plan.cycleEnd,
    membershipType: 'pro',
    limitType: 'user',
    individualUsage: {
      plan: {
        enabled: true,
        used: 900,
        limit: 2000,
        autoPercentUsed: plan.auto,
        apiPercentUsed: plan.api,
        totalPercentUsed: plan.total,
      },
      onDemand: { enabled: true, used: plan.onDemandCents, limit: 5000 },
    },
    teamUsage: {},
  },
});

const scene = useScene(
  promptScene((a): FakeAccount[] => {
    plan = { total: 20, auto: 3, api: 10, cycleEnd: '2026-12-15T00:00:00.000Z', onDemandCents: 0 };
    return [proAccount([a.cookieValue], 'a@example.com', { usageSummary: summary })];
  }),
);

/** A fake `notify-send` first on PATH: it logs each call's argv, one record per call. */
function fakeNotifier(scene: Scene, name = 'notify-send', exit = 0) {
  const bin = path.join(scene.root, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const log = path.join(scene.root, `${name}.log`);
  fs.writeFileSync(
    path.join(bin, name),
    `#!/bin/sh\nfor arg in "$@"; do printf '%s\\037' "$arg" >> '${log}'; done\nprintf '\\036' >> '${log}'\nexit ${exit}\n`,
    { mode: 0o755 },
  );
  return {
    env: { PATH: bin },
    calls: (): string[][] =>
      fs.existsSync(log)
        ? fs
            .readFileSync(log, 'utf8')
            .split('\x1e')
            .filter((record) => record !== '')
            .map((record) => record.split('\x1f').slice(0, -1))
        : [],
  };
}

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 answering each POST with the next status (the last one repeats). */
async function receiver(scene: Scene, statuses: (number | 'hang')[] = [200], delayMs = 0) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = statuses[Math.min(received.length, statuses.length) - 1]!;
      if (status !== 'hang') setTimeout(() => res.writeHead(status).end('ok'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  scene.defer(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?x=1`, received };
}

describe('once per threshold per billing cycle, on the most-used window', () => {
  it('crossing 50, 80 and 95 over successive runs sends three alerts, and a fourth run sends none', async () => {
    const notifier = fakeNotifier(scene);
    const args = ['alert', '--at', '50,80,95'];
    const outputs: string[] = [];
    // API is the window that runs out: Total and Auto stay low.
    for (const api of [55, 85, 96, 99]) {
      plan.api = api;
      const result = await scene.run(args, { env: notifier.env });
      expect(result.code).toBe(0);
      outputs.push(result.stdout);
    }

    expect(notifier.calls().map((argv) => argv[1])).toEqual([
      'Cursor usage: 55% used',
      'Cursor usage: 85% used',
      'Cursor usage: 96% used',
    ]);
    expect(notifier.calls()[0]).toEqual([
      '--app-name=codexbar',
      'Cursor usage: 55% used',
      'Cursor Third Party is at 55% used, past the 50% alert. Resets Dec 15 at 12:00AM.',
    ]);
    expect(outputs).toEqual([
      'Cursor Third Party is at 55% used, past the 50% alert. Resets Dec 15 at 12:00AM. (sent: desktop)\n',
      'Cursor Third Party is at 85% used, past the 80% alert. Resets Dec 15 at 12:00AM. (sent: desktop)\n',
      'Cursor Third Party is at 96% used, past the 95% alert. Resets Dec 15 at 12:00AM. (sent: desktop)\n',
      '',
    ]);
  });

  it('below every threshold nothing is sent and nothing is printed', async () => {
    const notifier = fakeNotifier(scene);
    const result = await scene.run(['alert', '--at', '50'], { env: notifier.env });
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(notifier.calls()).toEqual([]);
  });

  it('a level that jumps past several thresholds sends one alert, for the highest', async () => {
    const notifier = fakeNotifier(scene);
    plan.total = 90;
    await scene.run(['alert', '--at', '50,80,95'], { env: notifier.env });
    plan.total = 93;
    await scene.run(['alert', '--at', '50,80,95'], { env: notifier.env });
    expect(notifier.calls().map((argv) => argv[2])).toEqual([
      'Cursor Total is at 90% used, past the 80% alert. Resets Dec 15 at 12:00AM.',
    ]);
  });

  it('a new billing cycle arms every threshold again', async () => {
    const notifier = fakeNotifier(scene);
    plan.total = 85;
    await scene.run(['alert', '--at', '80'], { env: notifier.env });
    await scene.run(['alert', '--at', '80'], { env: notifier.env });
    plan.cycleEnd = '2027-01-15T00:00:00.000Z';
    const renewed = await scene.run(['alert', '--at', '80'], { env: notifier.env });

    expect(renewed.stdout).toContain('past the 80% alert. Resets Jan 15 at 12:00AM.');
    expect(notifier.calls()).toHaveLength(2);
  });

  it('ten concurrent runs send the alert once', async () => {
    // The receiver answers slowly, so every run has read the record before the first delivery ends.
    const hook = await receiver(scene, [200], 150);
    plan.total = 81;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => scene.run(['alert', '--at', '80', '--webhook', hook.url])),
    );

    expect(results.map((result) => result.code)).toEqual(Array(10).fill(0));
    expect(results.filter((result) => result.stdout !== '')).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
  });

  it('--on-demand-at: spend against its limit', async () => {
    const notifier = fakeNotifier(scene);
    plan.onDemandCents = 4600;
    const result = await scene.run(['alert', '--on-demand-at', '50,90'], { env: notifier.env });
    expect(result.stdout).toBe(
      'Cursor on-demand spend is $46.00 of $50.00 (92%), past the 90% alert. Resets Dec 15 at 12:00AM. (sent: desktop)\n',
    );
    // Only on-demand was asked for: the plan is not checked.
    expect(notifier.calls()).toHaveLength(1);
  });
});

describe('the record of sent alerts', () => {
  const recordDir = () => path.join(scene.home, '.cache', 'codexbar', 'alert');

  it('is kept owner-only under the cache dir, named by the account key', async () => {
    const notifier = fakeNotifier(scene);
    plan.total = 85;
    await scene.run(['alert', '--at', '80'], { env: notifier.env });
    const [name] = fs.readdirSync(recordDir());
    expect(name).toMatch(/^[0-9a-f]{32}\.json$/);
    expect(fs.statSync(path.join(recordDir(), name!)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(recordDir()).mode & 0o777).toBe(0o700);
  });

  it('a corrupted record is rebuilt, and the current level is sent at most once more', async () => {
    const notifier = fakeNotifier(scene);
    plan.total = 85;
    await scene.run(['alert', '--at', '50,80,95'], { env: notifier.env });
    const [name] = fs.readdirSync(recordDir());
    fs.writeFileSync(path.join(recordDir(), name!), '{"version":1,"tracks":{"plan":');

    const rebuilt = await scene.run(['alert', '--at', '50,80,95', '--verbose'], { env: notifier.env });
    const after = await scene.run(['alert', '--at', '50,80,95'], { env: notifier.env });

    expect(rebuilt.stderr).toContain(
      '[alert] The record of sent alerts was unusable (not JSON); rebuilding it',
    );
    expect(notifier.calls().map((argv) => argv[1])).toEqual([
      'Cursor usage: 85% used',
      'Cursor usage: 85% used',
    ]);
    expect(after.stdout).toBe('');
  });
});

describe('--webhook', () => {
  it('a receiver on 127.0.0.1 gets the alert as JSON text and content, with no credential', async () => {
    const hook = await receiver(scene);
    plan.total = 82;
    const result = await scene.run(['alert', '--at', '80', '--webhook', hook.url]);

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Cursor Total is at 82% used, past the 80% alert. Resets Dec 15 at 12:00AM. (sent: webhook)\n',
    );
    expect(hook.received).toHaveLength(1);
    const [{ headers, body }] = hook.received as [Received];
    const text = 'Cursor Total is at 82% used, past the 80% alert. Resets Dec 15 at 12:00AM.';
    expect(JSON.parse(body)).toEqual({ text, content: text, title: 'Cursor usage: 82% used' });
    expect(headers['content-type']).toBe('application/json');
    expect(headers.cookie).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
    expect(body).not.toContain(scene.given.a.cookieValue);
  });

  it('a failing webhook is not marked as sent: the next run sends it', async () => {
    const hook = await receiver(scene, [500, 200]);
    plan.total = 82;
    const failed = await scene.run(['alert', '--at', '80', '--webhook', hook.url]);
    const retried = await scene.run(['alert', '--at', '80', '--webhook', hook.url]);
    const done = await scene.run(['alert', '--at', '80', '--webhook', hook.url]);

    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(
      /^Error: The 80% plan alert was not sent \(webhook\): the webhook at http:\/\/127\.0\.0\.1:\d+ answered HTTP 500; the next run retries it\.\n$/,
    );
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('(sent: webhook)');
    expect(done.stdout).toBe('');
    expect(hook.received).toHaveLength(2);
  });

  it('a webhook that never answers is bounded by --delivery-timeout', async () => {
    const hook = await receiver(scene, ['hang']);
    plan.total = 82;
    const started = Date.now();
    const result = await scene.run([
      'alert',
      '--at',
      '80',
      '--webhook',
      hook.url,
      '--delivery-timeout',
      '0.2',
    ]);

    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('did not answer within 0.2 s; the next run retries it.');
  });

  it('one channel failing leaves the other sent: only the failed one is retried', async () => {
    const hook = await receiver(scene, [500, 200]);
    const notifier = fakeNotifier(scene);
    plan.total = 82;
    const args = ['alert', '--at', '80', '--webhook', hook.url, '--desktop'];
    const first = await scene.run(args, { env: notifier.env });
    const second = await scene.run(args, { env: notifier.env });

    expect(first.stdout).toContain('(sent: desktop)');
    expect(second.stdout).toContain('(sent: webhook)');
    expect(notifier.calls()).toHaveLength(1);
  });

  it('--json: one object per alert, with where it went', async () => {
    const hook = await receiver(scene);
    plan.total = 82;
    const result = await scene.run(['alert', '--at', '80', '--webhook', hook.url, '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({
      provider: 'cursor',
      kind: 'plan',
      threshold: 80,
      usedPercent: 82,
      window: 'Total',
      cycleEnd: '2026-12-15T00:00:00.000Z',
      delivered: ['webhook'],
      failed: [],
    });
  });
});

describe('--all-accounts', () => {
  it('each account has its own record and its label in the alert; a failing one does not stop the others', async () => {
    const [work, , personal] = await serveWorkBrokenPersonal(scene);
    const hook = await receiver(scene);
    const args = ['alert', '--all-accounts', '--at', '50,90', '--webhook', hook.url];
    const first = await scene.run(args);
    const second = await scene.run(args);

    // work: Third Party (API) at 60 % is its most-used window; personal: Total at 92 %.
    expect(first.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'Cursor Third Party (work) is at 60% used, past the 50% alert. Resets Dec 15 at 12:00AM. (sent: webhook)',
      'Cursor Total (personal) is at 92% used, past the 90% alert. Resets Dec 15 at 12:00AM. (sent: webhook)',
    ]);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/^Error \(cursor - broken\): /);
    expect(second.stdout).toBe('');
    expect(hook.received).toHaveLength(2);
    const records = fs
      .readdirSync(path.join(scene.home, '.cache', 'codexbar', 'alert'))
      .filter((name) => name.endsWith('.json'));
    expect(records.sort()).toEqual(
      [`${tokenAccountKey(work!)}.json`, `${tokenAccountKey(personal!)}.json`].sort(),
    );
  });
});

describe('--exec', () => {
  it('runs the program without a shell, with the figures and no credential in its environment', async () => {
    const out = path.join(scene.root, 'exec.env');
    const program = path.join(scene.root, 'on-alert');
    fs.writeFileSync(program, `#!/bin/sh\nexport -p > '${out}'\n`, { mode: 0o755 });
    plan.total = 82;
    const result = await scene.run(['alert', '--at', '80', '--exec', program], {
      env: { CODEXBAR_CURSOR_COOKIE: undefined, SOME_SECRET: 'hunter2', PATH: '/usr/bin:/bin' },
    });

    expect(result.code).toBe(0);
    const env = fs.readFileSync(out, 'utf8');
    expect(env).toContain("CODEXBAR_ALERT_THRESHOLD='80'");
    expect(env).toContain("CODEXBAR_ALERT_PERCENT='82'");
    expect(env).toContain("CODEXBAR_ALERT_KIND='plan'");
    expect(env).toContain("CODEXBAR_ALERT_WINDOW='Total'");
    expect(env).not.toContain('hunter2');
    expect(env).not.toContain('CODEXBAR_CURSOR_BASE_URL');
  });

  it('a program that fails is retried by the next run', async () => {
    const program = path.join(scene.root, 'on-alert');
    fs.writeFileSync(program, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    plan.total = 82;
    const failed = await scene.run(['alert', '--at', '80', '--exec', program]);
    fs.writeFileSync(program, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const retried = await scene.run(['alert', '--at', '80', '--exec', program]);

    expect(failed.stderr).toContain('exited with code 3; the next run retries it.');
    expect(retried.stdout).toContain('(sent: exec)');
  });
});

describe('--every', () => {
  it('checks again after each wait until the wait is stopped', async () => {
    const notifier = fakeNotifier(scene);
    const waits: number[] = [];
    const levels = [85, 96];
    plan.total = 60;
    const result = await scene.run(['alert', '--at', '80,95', '--every', '5m'], {
      env: notifier.env,
      timing: {
        sleep: async (ms) => {
          waits.push(ms);
          const next = levels.shift();
          if (next === undefined) throw new Error('stopped');
          plan.total = next;
        },
      },
    });

    expect(result.code).toBe(0);
    expect(waits).toEqual([300_000, 300_000, 300_000]);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect(notifier.calls().map((argv) => argv[1])).toEqual([
      'Cursor usage: 85% used',
      'Cursor usage: 96% used',
    ]);
  });
});

describe('bad arguments exit 64', () => {
  it.each([
    [['--at', '80,50'], 'increasing order'],
    [['--at', '50,50'], 'increasing order'],
    [['--at', '0,50'], 'from 1 to 100'],
    [['--at', '101'], 'from 1 to 100'],
    [['--at', '50,,80'], 'from 1 to 100'],
    [['--on-demand-at', 'x'], 'from 1 to 100'],
    [['--webhook', 'http://example.com/hook'], 'only https:// or http:// on a loopback host'],
    [['--every', '1s'], '--every must be a duration'],
  ])('%j', async (args, message) => {
    const result = await scene.run(['alert', ...args]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('a refused webhook URL from the environment is a bad argument too, and its path is never printed', async () => {
    const result = await scene.run(['alert'], {
      env: { CODEXBAR_ALERT_WEBHOOK_URL: 'http://hooks.example.com/T000/secret-token' },
    });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('Refusing CODEXBAR_ALERT_WEBHOOK_URL http://hooks.example.com');
    expect(result.stderr).not.toContain('secret-token');
  });
});

it('a failed check exits 1 and says why', async () => {
  await scene.fake!.close();
  const result = await scene.run(['alert', '--at', '80']);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^Error: /);
  expect(result.stdout).toBe('');
});
