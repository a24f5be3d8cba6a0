import { statSync } from 'node:fs';
import path from 'node:path';
import type { LocalEnvironment } from '../../../local/environment.js';
import type { ChromiumKeyNames } from './catalog.js';
import { type Outcome, ok, skip } from './outcome.js';
import type { CommandResult, runCommand } from './run-command.js';

/** A keyring lookup may show an unlock dialog, so it gets time for the user to answer it. */
const KEYRING_TIMEOUT_MS = 30_000;

type Run = typeof runCommand;

interface Backend {
  /** The helper program, named in reasons. */
  tool: string;
  lookups: (names: ChromiumKeyNames) => string[][];
}

// The Secret Service (`secret-tool`: GNOME Keyring, KeePassXC, …) and KWallet (`kwallet-query`) print the
// password on stdout; nothing secret is in their arguments (docs/invariants.md, "Never a credential shown").
const SECRET_TOOL: Backend = {
  tool: 'secret-tool',
  lookups: (names) => names.secretApplications.map((application) => ['lookup', 'application', application]),
};
const KWALLET: Backend = {
  tool: 'kwallet-query',
  lookups: (names) => [['--read-password', names.kwalletEntry, '--folder', names.kwalletFolder, 'kdewallet']],
};

type BackendAnswer =
  | { kind: 'found'; passwords: string[] }
  | { kind: 'none'; note: string }
  | { kind: 'missing' };

/**
 * Linux `v11`: the browser's "Safe Storage" password. The desktop's own keyring is asked first (KWallet on
 * KDE, the Secret Service elsewhere) and the other only when the first has nothing.
 */
export async function lookupLinuxPasswords(
  names: ChromiumKeyNames,
  env: LocalEnvironment,
  run: Run,
): Promise<Outcome<string[]>> {
  const entry = `“${names.kwalletEntry}”`;
  // Both keyrings answer over the D-Bus session bus; from cron, ssh or a tmux started outside the desktop there
  // is none, and the helpers would fail in ways that read like a locked keyring.
  if (!hasSessionBus(env)) {
    return skip(
      'no-desktop-session',
      `its ${entry} key is in the system keyring, and there is no desktop session ` +
        '(DBUS_SESSION_BUS_ADDRESS is unset); run from the desktop or unlock the keyring there',
      'Run codexbar from a terminal of your desktop session, where the keyring is, or sign in to cursor.com in Firefox.',
    );
  }
  const kde = /kde/i.test(env.env.XDG_CURRENT_DESKTOP ?? '');
  const backends = kde ? [KWALLET, SECRET_TOOL] : [SECRET_TOOL, KWALLET];
  const notes: string[] = [];
  for (const backend of backends) {
    const answer = await ask(backend, names, env, run);
    if (answer.kind === 'found') return ok(answer.passwords);
    if (answer.kind === 'none') notes.push(answer.note);
  }
  if (notes.length === 0) {
    return skip(
      'key-unavailable',
      `its ${entry} key is in the system keyring, and neither secret-tool nor kwallet-query is installed`,
      'Install secret-tool (Debian/Ubuntu: libsecret-tools) so codexbar can read the browser key from your keyring.',
    );
  }
  return skip(
    'key-unavailable',
    `could not read its ${entry} key from the system keyring (${notes.join('; ')})`,
    'Unlock your keyring (GNOME Keyring or KWallet) and try again, or sign in to cursor.com in Firefox.',
  );
}

/**
 * Whether a D-Bus session bus can be reached: DBUS_SESSION_BUS_ADDRESS names it, or, as libdbus and sd-bus
 * fall back to, `$XDG_RUNTIME_DIR/bus` is a socket.
 */
function hasSessionBus(env: LocalEnvironment): boolean {
  if ((env.env.DBUS_SESSION_BUS_ADDRESS ?? '').trim() !== '') return true;
  const runtime = env.env.XDG_RUNTIME_DIR;
  if (runtime === undefined || !path.isAbsolute(runtime)) return false;
  try {
    return statSync(path.join(runtime, 'bus')).isSocket();
  } catch {
    return false;
  }
}

async function ask(
  backend: Backend,
  names: ChromiumKeyNames,
  env: LocalEnvironment,
  run: Run,
): Promise<BackendAnswer> {
  const passwords: string[] = [];
  const misses: string[] = [];
  for (const args of backend.lookups(names)) {
    const result: CommandResult = await run(backend.tool, args, {
      env: env.env,
      timeoutMs: KEYRING_TIMEOUT_MS,
    });
    if (result.kind === 'missing') return { kind: 'missing' };
    if (result.kind === 'ok') {
      const password = withoutTrailingNewline(result.stdout.toString('utf8'));
      if (password !== '') passwords.push(password);
      else misses.push(`${backend.tool} found nothing`);
    } else if (result.kind === 'timeout') {
      misses.push(`${backend.tool} did not answer within ${KEYRING_TIMEOUT_MS / 1000} s`);
    } else {
      misses.push(`${backend.tool} found nothing (exit ${result.code ?? 'by signal'})`);
    }
  }
  if (passwords.length > 0) return { kind: 'found', passwords };
  return { kind: 'none', note: [...new Set(misses)].join(', ') };
}

/** The helpers end the password with a newline on some versions; the password itself never has one. */
export function withoutTrailingNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
