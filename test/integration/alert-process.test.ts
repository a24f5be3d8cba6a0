import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { proAccount, summaryWithPercent } from '../helpers/accounts.js';
import { builtCliExists, startCli } from '../helpers/cli.js';
import { PROMPT_NOW, promptScene } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';

/** `codexbar alert --every` as a process: it keeps checking until SIGTERM, then exits 0. Needs the build. */

const scene = useScene(
  promptScene((a) => [
    proAccount([a.cookieValue], 'a@example.com', { usageSummary: summaryWithPercent(85) }),
  ]),
);

it.skipIf(!builtCliExists())('--every checks, sends once, and stops cleanly on SIGTERM', async () => {
  const bodies: string[] = [];
  let arrived: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      bodies.push(body);
      res.end('ok');
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  scene.defer(() => new Promise((resolve) => server.close(resolve)));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  const { child, result } = startCli(['alert', '--at', '80', '--every', '10s'], {
    home: scene.home,
    env: { CODEXBAR_CURSOR_BASE_URL: scene.fake!.url, CODEXBAR_ALERT_WEBHOOK_URL: url },
    now: PROMPT_NOW,
    frozen: true,
  });
  await first;
  child.kill('SIGTERM');
  const done = await result;

  expect(done.signal).toBeNull();
  expect(done.code).toBe(0);
  expect(done.stdout).toBe(
    'Cursor Total is at 85% used, past the 80% alert. Resets Dec 15 at 12:00AM. (sent: webhook)\n',
  );
  expect(bodies).toHaveLength(1);
});
