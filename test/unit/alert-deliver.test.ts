import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWebhookUrl, childEnvironment, deliveries } from '../../src/alert/deliver.js';
import { type Alert, alertEnvironment, alertMessage } from '../../src/alert/message.js';
import { readAlertRecord, writeAlertRecord } from '../../src/alert/state.js';
import type { LocalEnvironment } from '../../src/local/environment.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-alert-'));
  dirs.push(dir);
  return dir;
}

/** A fake program that writes its argv and stdin to `<name>.log`. */
function fakeProgram(dir: string, name: string): () => string[] {
  const log = path.join(dir, `${name}.log`);
  fs.writeFileSync(
    path.join(dir, name),
    `#!/bin/sh\nfor arg in "$@"; do printf '%s\\037' "$arg" >> '${log}'; done\nwhile IFS= read -r line; do printf 'stdin:%s' "$line" >> '${log}'; done\nprintf 'stdin:%s' "$line" >> '${log}'\n`,
    { mode: 0o755 },
  );
  return () => fs.readFileSync(log, 'utf8').split('\x1f');
}

const alert: Alert = {
  account: 'work\u001b[31m',
  threshold: 80,
  level: { kind: 'plan', percent: 82.25, window: 'Total', cycle: '2026-12-15T00:00:00.000Z' },
};

function env(platform: LocalEnvironment['platform'], dir: string): LocalEnvironment {
  return { platform, env: { PATH: dir, CURSOR_API_KEY: 'key_secret' }, homeDir: dir, now: () => new Date() };
}

describe('the desktop notifier is given the text as arguments, never through a shell', () => {
  it('macOS: osascript reads the title and text from its argv', async () => {
    const dir = tempDir();
    const calls = fakeProgram(dir, 'osascript');
    const message = { title: 'T "quoted"; do shell script "x"', text: 'body' };
    const [desktop] = deliveries({ desktop: true, timeoutMs: 5000 }, env('darwin', dir));
    await desktop!.deliver(alert, message);
    expect(calls().slice(0, 8)).toEqual([
      '-e',
      'on run argv',
      '-e',
      'display notification (item 2 of argv) with title (item 1 of argv)',
      '-e',
      'end run',
      'T "quoted"; do shell script "x"',
      'body',
    ]);
  });

  it('Windows: PowerShell gets the title and text on stdin, as JSON', async () => {
    const dir = tempDir();
    const calls = fakeProgram(dir, 'powershell.exe');
    const [desktop] = deliveries({ desktop: true, timeoutMs: 5000 }, env('win32', dir));
    await desktop!.deliver(alert, { title: 'T', text: 'x' });
    const argv = calls();
    expect(argv.slice(0, 3)).toEqual(['-NoProfile', '-NonInteractive', '-Command']);
    expect(argv.at(-1)).toBe('stdin:{"title":"T","text":"x"}');
  });

  it('a notifier that is not installed is a failed delivery', async () => {
    const dir = tempDir();
    const [desktop] = deliveries({ desktop: true, timeoutMs: 5000 }, env('linux', dir));
    await expect(desktop!.deliver(alert, { title: 'T', text: 'x' })).rejects.toThrow(
      'notify-send was not found',
    );
  });
});

describe('what reaches a program and a message', () => {
  it('the child environment holds the notifier variables and the figures, no credential', () => {
    const child = childEnvironment(
      {
        platform: 'win32',
        env: {
          Path: 'C:\\bin',
          DBUS_SESSION_BUS_ADDRESS: 'unix:x',
          CODEXBAR_CURSOR_COOKIE: 'c',
          CURSOR_API_KEY: 'k',
        },
        homeDir: 'C:\\Users\\me',
        now: () => new Date(),
      },
      { CODEXBAR_ALERT_KIND: 'plan' },
    );
    expect(child).toEqual({
      Path: 'C:\\bin',
      DBUS_SESSION_BUS_ADDRESS: 'unix:x',
      CODEXBAR_ALERT_KIND: 'plan',
    });
  });

  it('a label with control characters is shown escaped, in the message and the variables', () => {
    const message = alertMessage(alert);
    expect(message).toEqual({
      title: 'Cursor usage (work\\x1b[31m): 82.3% used',
      text: 'Cursor Total (work\\x1b[31m) is at 82.3% used, past the 80% alert.',
    });
    expect(alertEnvironment(alert, message)).toMatchObject({
      CODEXBAR_ALERT_ACCOUNT: 'work\\x1b[31m',
      CODEXBAR_ALERT_PERCENT: '82.3',
      CODEXBAR_ALERT_CYCLE_END: '2026-12-15T00:00:00.000Z',
    });
  });
});

describe('checkWebhookUrl', () => {
  it.each([
    ['https://hooks.slack.com/services/T0/B0/x?y=1', 'https://hooks.slack.com/services/T0/B0/x?y=1'],
    ['http://127.0.0.1:8080/hook', 'http://127.0.0.1:8080/hook'],
    ['http://localhost/hook', 'http://localhost/hook'],
    ['http://[::1]:9/hook', 'http://[::1]:9/hook'],
  ])('%s is accepted as given', (raw, url) => {
    expect(checkWebhookUrl(raw, '--webhook')).toEqual({ url });
  });

  it.each([
    [
      'http://example.com/T0/token',
      'Refusing --webhook http://example.com: only https:// or http:// on a loopback host is allowed.',
    ],
    ['ftp://127.0.0.1/x', 'Refusing --webhook ftp://127.0.0.1'],
    ['not a url /token', '--webhook is not a URL.'],
  ])('%s is refused without its path', (raw, refusal) => {
    const checked = checkWebhookUrl(raw, '--webhook');
    expect('refusal' in checked && checked.refusal).toContain(refusal);
    expect(JSON.stringify(checked)).not.toContain('token');
  });
});

describe('the record', () => {
  it('round-trips, and an unusable one reads as empty with the reason', () => {
    const dir = tempDir();
    const file = path.join(dir, 'alert', 'k.json');
    const record = {
      version: 1 as const,
      tracks: { plan: { cycle: '2026-12-15T00:00:00.000Z', sent: { desktop: 80 } } },
    };
    writeAlertRecord(file, record);
    expect(readAlertRecord(file)).toEqual({ record });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    for (const [text, reason] of [
      ['{', 'not JSON'],
      ['{"version":2,"tracks":{}}', 'not an alert record'],
      ['{"version":1,"tracks":{"plan":{"cycle":null,"sent":{"desktop":"80"}}}}', 'not an alert record'],
    ]) {
      fs.writeFileSync(file, text!);
      expect(readAlertRecord(file)).toEqual({ record: { version: 1, tracks: {} }, rebuilt: reason });
    }
    fs.rmSync(file);
    fs.mkdirSync(file);
    expect(readAlertRecord(file).rebuilt).toBe('it is a directory');
  });
});
