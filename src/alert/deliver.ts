import { resolveOverridableUrl } from '../api/base-url.js';
import { createDispatcher, proxySettings, sendRequest } from '../api/transport.js';
import { runCommand } from '../auth/sources/browser/run-command.js';
import type { LocalEnvironment } from '../local/environment.js';
import { type Alert, type AlertMessage, alertEnvironment } from './message.js';
import type { Channel } from './thresholds.js';

/**
 * Where `codexbar alert` sends an alert: the desktop's notifier, a webhook, or a program of the user's. Each
 * is bounded by one timeout, and a failure is thrown as a DeliveryError so that the command leaves the alert
 * unsent (the next run retries it). Programs are spawned with an argument list, never through a shell, and
 * with an environment of the few variables a notifier needs: nothing else of ours, and so no credential
 * (`CODEXBAR_CURSOR_COOKIE`, `CURSOR_API_KEY`, …), ever reaches them (docs/invariants.md, "Never a
 * credential shown"). A webhook gets the message and nothing else: no cookie, no header of ours.
 */

export class DeliveryError extends Error {}

export interface DeliverySettings {
  desktop: boolean;
  /** Checked by `checkWebhookUrl`. */
  webhook?: string;
  /** A program, run as it is named (looked up on PATH), with no arguments. */
  exec?: string;
  timeoutMs: number;
}

export type Deliver = (alert: Alert, message: AlertMessage) => Promise<void>;

export interface Delivery {
  channel: Channel;
  deliver: Deliver;
}

export function deliveries(settings: DeliverySettings, env: LocalEnvironment): Delivery[] {
  const list: Delivery[] = [];
  if (settings.desktop) list.push({ channel: 'desktop', deliver: desktop(env, settings.timeoutMs) });
  if (settings.webhook !== undefined) {
    list.push({ channel: 'webhook', deliver: webhook(settings.webhook, env, settings.timeoutMs) });
  }
  if (settings.exec !== undefined) {
    list.push({ channel: 'exec', deliver: program(settings.exec, env, settings.timeoutMs) });
  }
  return list;
}

/**
 * docs/invariants.md, "Credentials only to their own server, over HTTPS": the same rule as a base URL, https
 * or plain http on a loopback host (a webhook URL is itself a secret: Slack's and Discord's hold their
 * token). Returns the URL as given (its query kept), or the refusal.
 */
export function checkWebhookUrl(raw: string, name: string): { url: string } | { refusal: string } {
  try {
    resolveOverridableUrl(raw, { variable: name, defaultUrl: '', hint: '' });
    return { url: new URL(raw.trim()).href };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The parse error quotes the whole value; a malformed URL may still hold its token.
    return { refusal: message.startsWith(`${name} is not a URL`) ? `${name} is not a URL.` : message };
  }
}

/** What a notifier or a program needs of the environment: the session bus, the display, the paths. */
const PASSED_VARIABLES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'DBUS_SESSION_BUS_ADDRESS',
  'XDG_RUNTIME_DIR',
  'XDG_CURRENT_DESKTOP',
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
]);

/** Windows spells its variables in any case (`Path`), so they are matched without it. */
export function childEnvironment(
  env: LocalEnvironment,
  extra: Record<string, string> = {},
): Record<string, string> {
  const child: Record<string, string> = {};
  for (const [key, value] of Object.entries(env.env)) {
    const name = key.toUpperCase();
    if (value !== undefined && (PASSED_VARIABLES.has(name) || name.startsWith('LC_'))) child[key] = value;
  }
  return { ...child, ...extra };
}

/** The text a notifier shows is the user's to read, and macOS gets it as arguments of its script. */
const OSASCRIPT = [
  'on run argv',
  'display notification (item 2 of argv) with title (item 1 of argv)',
  'end run',
];

/** A Windows toast through WinRT, the title and text read from stdin as JSON (never in the script). */
const TOAST_SCRIPT = [
  '$m = [Console]::In.ReadToEnd() | ConvertFrom-Json',
  '[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null',
  '$x = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)',
  '$t = $x.GetElementsByTagName("text")',
  '$t.Item(0).AppendChild($x.CreateTextNode($m.title)) > $null',
  '$t.Item(1).AppendChild($x.CreateTextNode($m.text)) > $null',
  '$id = "{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe"',
  '[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($id).Show([Windows.UI.Notifications.ToastNotification]::new($x))',
].join('; ');

function desktop(env: LocalEnvironment, timeoutMs: number): Deliver {
  return async (_alert, message) => {
    const childEnv = childEnvironment(env);
    if (env.platform === 'darwin') {
      const args = [...OSASCRIPT.flatMap((line) => ['-e', line]), message.title, message.text];
      await run('osascript', args, { env: childEnv, timeoutMs });
    } else if (env.platform === 'win32') {
      const input = JSON.stringify({ title: message.title, text: message.text });
      const args = ['-NoProfile', '-NonInteractive', '-Command', TOAST_SCRIPT];
      await run('powershell.exe', args, { env: childEnv, timeoutMs, input });
    } else {
      await run('notify-send', ['--app-name=codexbar', message.title, message.text], {
        env: childEnv,
        timeoutMs,
      });
    }
  };
}

function program(file: string, env: LocalEnvironment, timeoutMs: number): Deliver {
  return async (alert, message) => {
    await run(file, [], { env: childEnvironment(env, alertEnvironment(alert, message)), timeoutMs });
  };
}

async function run(
  file: string,
  args: string[],
  options: { env: Record<string, string>; timeoutMs: number; input?: string },
): Promise<void> {
  const result = await runCommand(file, args, options);
  switch (result.kind) {
    case 'ok':
      return;
    case 'missing':
      throw new DeliveryError(`${file} was not found`);
    case 'timeout':
      throw new DeliveryError(`${file} did not finish within ${options.timeoutMs / 1000} s`);
    case 'failed':
      throw new DeliveryError(
        result.code === null ? `${file} could not be run` : `${file} exited with code ${result.code}`,
      );
  }
}

/** The most of a webhook's answer that is read (and thrown away). */
const ANSWER_LIMIT = 64 * 1024;

/**
 * A JSON POST with the message as `text` (Slack, Mattermost; ntfy through its templates, `?tpl=1&m={{.text}}`)
 * and `content` (Discord), and a `title`. A 2xx
 * answer is a delivery; anything else, a redirect included (never followed), is a failure. Messages name the
 * URL's origin only: its path may be the webhook's token.
 */
function webhook(url: string, env: LocalEnvironment, timeoutMs: number): Deliver {
  const target = new URL(url);
  return async (_alert, message) => {
    const dispatcher = createDispatcher(proxySettings(env.env));
    const signal = AbortSignal.timeout(timeoutMs);
    const body = JSON.stringify({ text: message.text, content: message.text, title: message.title });
    try {
      const response = await sendRequest(dispatcher, {
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'codexbar-alert' },
        body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      let read = 0;
      for await (const chunk of response.body) {
        read += (chunk as Buffer).length;
        if (read > ANSWER_LIMIT) break;
      }
      if (response.statusCode < 200 || response.statusCode > 299) {
        throw new DeliveryError(`the webhook at ${target.origin} answered HTTP ${response.statusCode}`);
      }
    } catch (error) {
      if (error instanceof DeliveryError) throw error;
      if (signal.aborted) {
        throw new DeliveryError(
          `the webhook at ${target.origin} did not answer within ${timeoutMs / 1000} s`,
        );
      }
      const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : '';
      throw new DeliveryError(`the webhook at ${target.origin} could not be reached${code}`);
    } finally {
      await dispatcher.destroy().catch(() => {});
    }
  };
}
