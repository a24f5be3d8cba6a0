/**
 * docs/invariants.md, "Control characters never reach a terminal": text from cursor.com (here an account
 * email and a plan name carrying an OSC 8 link, a clear-screen, a colour, a C1 CSI and DEL) reaches stdout
 * only as visible `\xNN` escapes: live and from the usage snapshot, in every statusline token, and in what
 * login and logout say (a token account's label is cursor.com's email by default).
 */
import { describe, expect, it } from 'vitest';
import { STATUSLINE_TOKENS } from '../../src/render/statusline.js';
import { proAccount } from '../helpers/accounts.js';
import { later, promptScene } from '../helpers/prompt.js';
import { useScene } from '../helpers/scene.js';

const HOSTILE = '\u001b]8;;https://evil.example\u0007x\u001b]8;;\u0007\u001b[2J\u001b[31m\u009b1m\u007f';
const EMAIL = `a${HOSTILE}@example.com`;

const scene = useScene(
  promptScene((a) => {
    const account = proAccount([a.cookieValue], EMAIL);
    (account.usageSummary as { json: Record<string, unknown> }).json.membershipType = `pro${HOSTILE}`;
    return [account];
  }),
);

/** Any C0 control but the line's own newline, DEL or C1. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const EVERY_TOKEN = STATUSLINE_TOKENS.map((token) => `{${token}}`).join(' ');

describe("cursor.com's email and plan, with escape sequences in them", () => {
  it('statusline: every token, live and from the snapshot, shows them as visible escapes', async () => {
    const live = await scene.run(['statusline', '--template', EVERY_TOKEN]);
    const cached = await scene.run(['statusline', '--template', EVERY_TOKEN], { now: later(30) });
    for (const run of [live, cached]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(CONTROL);
      expect(run.stderr).not.toMatch(CONTROL);
      expect(run.stdout).toContain('a\\x1b]8;;https://evil.example\\x07x');
      expect(run.stdout).toContain('pro\\x1b]8;;');
    }
  });

  it('usage from the snapshot (--max-age) shows them as visible escapes too', async () => {
    await scene.run(['usage', '--json']);
    const cached = await scene.run(['usage', '--max-age', '1h', '--no-color'], { now: later(30) });
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stdout).toContain('From the cache');
    expect(cached.stdout).not.toMatch(CONTROL);
    expect(cached.stdout).toContain('\\x1b]8;;');
  });

  it('login and logout: the email, the plan and the label made of the email, as visible escapes', async () => {
    const login = await scene.run(['login', '--stdin'], {
      stdin: `Cookie: WorkosCursorSessionToken=${scene.given.a.cookieValue}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).not.toMatch(CONTROL);
    expect(login.stdout).toContain('Signed in to Cursor as a\\x1b]8;;https://evil.example');
    expect(login.stdout).toContain('(Cursor pro\\x1b]8;;');

    const logout = await scene.run(['logout', '--all']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).not.toMatch(CONTROL);
    expect(logout.stdout).toContain('Removed token account "a\\x1b]8;;https://evil.example');
  });
});
