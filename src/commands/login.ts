import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { resolveBaseUrl } from '../api/base-url.js';
import { CursorClient } from '../api/client.js';
import { fetchMe, fetchUsageSummary } from '../api/usage-endpoints.js';
import { sessionTokenIdentityFromCookie } from '../auth/cookie.js';
import { loginCookieHeader } from '../auth/login-input.js';
import type { CliIo } from '../cli/io.js';
import { addOutputOptions, type OutputFlags, type OutputOptions, outputOptions } from '../cli/options.js';
import { Reporter } from '../cli/output.js';
import { readSecret } from '../cli/secret-input.js';
import { cleanValue } from '../config/clean.js';
import { newConfig, upsertTokenAccount } from '../config/edit.js';
import { assertConfigUpdatable, updateConfigFile } from '../config/write.js';
import { ArgumentError, NotLoggedInError } from '../errors.js';
import { displayPath } from '../local/paths.js';
import { safeText } from '../render/safe-text.js';
import { planName } from '../usage/plan-name.js';

const LOGIN_EXAMPLES = `
The secret is never an argument: paste it at the hidden prompt, or pipe it in with --stdin.

Examples:
  codexbar login                             paste, verify, save as the active account
  codexbar login --label work --no-activate  add a second account without switching to it
  pbpaste | codexbar login --stdin           macOS: from the clipboard
  wl-paste | codexbar login --stdin          Wayland (xclip -o -selection clipboard on X11)
  codexbar logout --account work             forget one account`;

/** `codexbar login`. */
export function register(program: Command, io: CliIo, setExitCode: (code: number) => void): void {
  addOutputOptions(
    program
      .command('login')
      .description('add a cursor.com session as a token account: pasted without echo, verified, then saved'),
  )
    .option('--stdin', 'read the cookie from stdin instead of a hidden prompt')
    .option('--label <name>', 'the token account label (default: the account email)')
    .option('--no-activate', 'keep the active account as it is')
    .addHelpText('after', LOGIN_EXAMPLES)
    .action(async (flags: LoginFlags) => setExitCode(await loginCommand(flags, io)));
}

interface LoginFlags extends OutputFlags {
  stdin?: boolean;
  label?: string;
  /** commander's `--no-activate`: false when given. */
  activate: boolean;
}

const QUESTION =
  'Paste the Cookie header of a signed-in cursor.com request, a "Copy as cURL" command or the ' +
  'WorkosCursorSessionToken value (hidden), then press Enter:\n';

/**
 * `codexbar login`: read a session without echo, verify it live, store it as a token account. Nothing is
 * written unless cursor.com accepted the session.
 */
async function loginCommand(flags: LoginFlags, io: CliIo): Promise<number> {
  const reporter = new Reporter(io, outputOptions(flags));
  try {
    const label = flags.label === undefined ? undefined : cleanValue(flags.label);
    if (flags.label !== undefined && label === undefined)
      throw new ArgumentError('--label must not be empty.');
    const baseUrl = resolveBaseUrl(io.env.CODEXBAR_CURSOR_BASE_URL);
    // A config file that could not take the account is reported before the secret is asked for.
    await assertConfigUpdatable(io);
    const pasted = await readSecret(io.stdin, io.stderr, {
      fromStdin: flags.stdin === true,
      question: QUESTION,
    });
    const cookieHeader = loginCookieHeader(pasted);
    const who = await verify(baseUrl, cookieHeader, io);
    const accountLabel = label ?? who.email;
    if (accountLabel === undefined) {
      throw new ArgumentError(
        'cursor.com accepted the session but did not say which account it is, so there is no label for it.',
        'Run codexbar login again with --label <name>. Nothing was saved.',
      );
    }
    const { path, result } = await updateConfigFile(io, (current) => {
      const config = current ?? newConfig();
      const stored = upsertTokenAccount(
        config,
        {
          label: accountLabel,
          token: cookieHeader,
          addedAt: Math.floor(io.now().getTime() / 1000),
          id: randomUUID().toUpperCase(),
        },
        flags.activate,
      );
      return { config, result: stored };
    });
    const shown = displayPath(path, io);
    if (reporter.json) {
      reporter.printJson({
        account: result.label,
        email: who.email,
        plan: who.plan,
        active: result.active,
        replaced: result.replaced,
        configPath: path,
      });
    } else {
      // The email, the plan and the label (cursor.com's email by default) are text from cursor.com or the
      // user: shown with their control characters escaped (docs/invariants.md, "Control characters never
      // reach a terminal").
      const label = safeText(result.label);
      const signedIn = `Signed in to Cursor as ${safeText(who.email ?? result.label)}${who.plan ? ` (${safeText(who.plan)})` : ''}.`;
      const saved = `${result.replaced ? 'Updated' : 'Saved'} token account "${label}" in ${shown}`;
      const active = result.active
        ? '; it is the active account.'
        : `; it is not the active account (use --account '${label}').`;
      reporter.printText(`${signedIn}\n${saved}${active}`);
    }
    warnIfOverridden(io, reporter);
    return 0;
  } catch (error) {
    return reporter.fail(error);
  }
}

interface Verified {
  email?: string;
  plan?: string;
}

/**
 * The usage summary proves the session (docs/invariants.md, "Only a rejection switches credentials"): the
 * same test every command uses; the account's email comes from /api/auth/me, else from the session token
 * itself.
 */
async function verify(baseUrl: string, cookieHeader: string, io: CliIo): Promise<Verified> {
  const client = new CursorClient({ baseUrl });
  const ctx = { client, cookieHeader };
  try {
    const [summary, me] = await Promise.all([
      fetchUsageSummary(ctx, io.timing.requestTimeoutMs),
      fetchMe(ctx, io.timing.requestTimeoutMs),
    ]);
    const verified: Verified = {};
    const email = me?.email?.trim() || sessionTokenIdentityFromCookie(cookieHeader)?.email?.trim();
    if (email) verified.email = email;
    const plan = planName(summary.membershipType ?? undefined);
    if (plan) verified.plan = plan;
    return verified;
  } catch (error) {
    if (error instanceof NotLoggedInError) {
      throw new NotLoggedInError(
        error.endpoint,
        error.status,
        `cursor.com rejected this session (HTTP ${error.status}): it is not signed in, or it has expired. Nothing was saved.`,
        'Copy the Cookie header again from a cursor.com tab where you are signed in (DevTools ▸ Network ▸ a request to cursor.com ▸ Request Headers ▸ cookie).',
      );
    }
    throw error;
  } finally {
    await client.close();
  }
}

/** A cookie from the environment beats the active account: say so, once. */
function warnIfOverridden(io: CliIo, reporter: Reporter<OutputOptions>): void {
  if (!io.env.CODEXBAR_CURSOR_COOKIE?.trim() || reporter.options.jsonOnly) return;
  io.stderr.write(
    'Note: CODEXBAR_CURSOR_COOKIE is set and beats the active token account; unset it, or pass --account.\n',
  );
}
