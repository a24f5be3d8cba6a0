/**
 * `codexbar doctor --json` (alias `diagnose --format json`): CodexBar's redacted
 * `diagnose` export for one provider, plus codexbar's own findings. Keys are sorted at every level.
 */
import { z } from 'zod';
import { cliErrorOutputSchema, isoDate } from './shared.js';

const SOURCE_IDS = ['manual', 'cached', 'stored', 'app', 'agent', 'browser', 'apikey'] as const;
const ERROR_CATEGORIES = ['auth', 'network', 'configuration'] as const;

const problemSchema = z
  .strictObject({
    problem: z.string().describe('What is wrong.'),
    fix: z.string().describe("What to do about it (`codexbar login --label 'work'`, `chmod 700 …`)."),
  })
  .meta({ title: 'Doctor problem', about: 'A problem and its fix, as the text report lists them.' });

const doctorSchema = z
  .strictObject({
    schemaVersion: z.literal('1.0').describe('Always `1.0`.'),
    timestamp: isoDate.describe('When the checks ran.'),
    platform: z.enum(['Linux', 'macOS', 'Windows']).describe('The operating system.'),
    appVersion: z.string().describe("codexbar's version."),
    provider: z.literal('cursor').describe('Always `cursor`.'),
    displayName: z.literal('Cursor').describe('Always `Cursor`.'),
    source: z
      .enum(['web', 'failed'])
      .describe('`web` when a session was accepted by cursor.com, else `failed`.'),
    sourceMode: z.literal('auto').describe('Always `auto`.'),
    auth: z
      .strictObject({
        configured: z
          .boolean()
          .describe(
            'Whether a manual header or token accounts are set (config file or `CODEXBAR_CURSOR_COOKIE`).',
          ),
        modes: z
          .array(z.enum(SOURCE_IDS))
          .describe('The credential sources that found something, in ladder order.'),
      })
      .describe('What the credential check found.'),
    fetchAttempts: z
      .tuple([
        z
          .strictObject({
            kind: z.literal('web').describe('Always `web`.'),
            wasAvailable: z.boolean().describe('Whether any credential source found a session.'),
            errorCategory: z
              .enum(ERROR_CATEGORIES)
              .optional()
              .describe('As `error.category`; omitted when a session was accepted.'),
          })
          .describe('The one attempt.'),
      ])
      .describe('One entry.'),
    error: z
      .strictObject({
        category: z
          .enum(ERROR_CATEGORIES)
          .describe(
            '`configuration` (cookie source off, a config error), `network` (cursor.com unreachable, a check that ' +
              'failed), else `auth`.',
          ),
        safeDescription: z
          .string()
          .describe(
            "CodexBar's sentence for the category (`Network issue - check connectivity or proxy settings`).",
          ),
      })
      .optional()
      .describe('Omitted when a session was accepted.'),
    settings: z
      .strictObject({ sourceMode: z.literal('auto').describe('Always `auto`.') })
      .describe('Always `{"sourceMode": "auto"}`.'),
    node: z
      .strictObject({
        version: z.string().describe('`process.version` (`v22.12.0`).'),
        platform: z.string().describe('`process.platform`.'),
        arch: z.string().describe('`process.arch`.'),
        supported: z.boolean().describe('Whether it is Node.js 20.18 or newer.'),
        endOfLife: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional()
          .describe(
            "The date this Node line's support ended (`2026-04-30` for 20), once it has: codexbar still runs there, but Node no longer gets security fixes. Absent before that date.",
          ),
      })
      .describe("codexbar's: the Node.js running it."),
    sqlite: z
      .strictObject({
        engine: z
          .enum(['better-sqlite3', 'node:sqlite', 'none'])
          .describe(
            "The SQLite engine in use: better-sqlite3's addon, else Node's built-in `node:sqlite` (Node 22.13 and later), else `none` (degraded: `cost` runs without its event store, browser cookies cannot be read, `proxy` cannot record).",
          ),
        version: z.string().optional().describe('The SQLite library version; absent with `none`.'),
        reason: z
          .string()
          .optional()
          .describe(
            'Why better-sqlite3 is not the engine (not installed, its addon never built, built for another Node); absent when it is.',
          ),
        fix: z
          .string()
          .optional()
          .describe(
            'The command that makes better-sqlite3 load (`npm rebuild better-sqlite3` in its directory, or a reinstall with `--allow-scripts=better-sqlite3`); with `reason`.',
          ),
      })
      .describe("codexbar's: the SQLite engine."),
    config: z
      .strictObject({
        path: z.string().describe('The config file, `~` for the home directory.'),
        exists: z.boolean().describe('Whether it exists.'),
        issues: z
          .array(
            z
              .strictObject({
                severity: z.enum(['warning', 'error']).describe('As `config validate`.'),
                code: z.string().describe('As `config validate`.'),
                message: z.string().describe('As `config validate`.'),
              })
              .describe('An issue, without its `provider` and `field`.'),
          )
          .describe("`config validate`'s issues."),
      })
      .describe("codexbar's: the config file."),
    cache: z
      .strictObject({
        path: z.string().describe('`<cache dir>/codexbar`, `~` for the home directory.'),
        state: z
          .string()
          .describe(
            '`private (mode 700)`, `not created yet (made on first use, mode 0700)`, or what is wrong.',
          ),
        ok: z.boolean().describe('Whether it is fine (missing is fine).'),
      })
      .describe("codexbar's: the cache directory."),
    proxy: z
      .strictObject({
        variables: z
          .array(z.string())
          .describe('The proxy variables set, by name (`HTTPS_PROXY`, `NO_PROXY`, any case).'),
        proxies: z
          .array(z.string())
          .describe(
            'Each proxy as `NAME: scheme://host:port`, with `(credentials hidden)` for a user name or password.',
          ),
        noProxy: z.string().optional().describe("`NO_PROXY`'s value, when it is set."),
      })
      .describe("codexbar's: the proxy variables."),
    network: z
      .strictObject({
        url: z.string().describe('The base URL asked: `https://cursor.com`, or `CODEXBAR_CURSOR_BASE_URL`.'),
        reachable: z.boolean().describe('Whether it gave any HTTP answer to `GET <base URL>/` within 5 s.'),
        detail: z
          .string()
          .describe(
            '`HTTP 200`, an error code (`ECONNREFUSED`), `no answer within 5 s`, or `refused` for a ' +
              '`CODEXBAR_CURSOR_BASE_URL` codexbar does not accept.',
          ),
      })
      .describe("codexbar's: whether cursor.com answers."),
    authSources: z
      .array(
        z
          .strictObject({
            id: z
              .enum([...SOURCE_IDS, 'all'])
              .describe('The source; `all` when the check was skipped (see `problems`).'),
            name: z.string().describe('Its name (`manual cookie header`, `Cursor app token`, …).'),
            state: z
              .enum(['used', 'rejected', 'failed', 'found', 'skipped'])
              .describe(
                '`used`: the session codexbar would use, accepted by cursor.com; `rejected`: cursor.com said "not ' +
                  'logged in"; `failed`: the check itself failed; `found`: a session not needed; `skipped`: nothing usable.',
              ),
            detail: z.string().describe('The session found, or why the source was skipped.'),
            notes: z.array(z.string()).describe('Browsers and profiles passed over, one line each.'),
          })
          .meta({
            title: 'Credential source',
            about: 'One credential source, in the order `usage` tries them.',
          }),
      )
      .describe("codexbar's: every credential source, in the platform's order."),
    tokenAccounts: z
      .array(
        z
          .strictObject({
            label: z.string().describe('Its label.'),
            active: z.boolean().describe('Whether it is the active account.'),
            state: z
              .enum(['accepted', 'rejected', 'failed', 'empty'])
              .describe('What cursor.com said, or `empty` for no token.'),
            detail: z
              .string()
              .optional()
              .describe('`accepted by cursor.com`, `HTTP 401`, …; omitted for an empty one.'),
          })
          .meta({ title: 'Token account check', about: 'One token account, checked live (4 at once).' }),
      )
      .describe("codexbar's: every token account."),
    doors: z
      .array(
        z
          .strictObject({
            door: z
              .enum(['web', 'rpc'])
              .describe(
                "`web`: cursor.com's usage-summary with the cookie; `rpc`: api2's GetCurrentPeriodUsage.",
              ),
            state: z
              .enum(['answers', 'rejected', 'failed', 'unchecked'])
              .describe(
                '`answers`: it gave usage with the session `usage` would use; `rejected`: "not logged in"; ' +
                  '`failed`: another error; `unchecked`: no session could open it.',
              ),
            detail: z.string().describe('What was asked and with which session, or why it was not.'),
          })
          .meta({ title: 'Door check', about: 'One way to the usage figures (docs/api2.md).' }),
      )
      .optional()
      .describe("codexbar's: whether each door answers; absent when the check did not run."),
    problems: z
      .array(problemSchema)
      .describe("codexbar's: every problem found; the export exits 0 whatever it holds."),
  })
  .meta({
    title: 'Doctor report',
    about:
      "CodexBar's `diagnose` fields first, then codexbar's findings (listed here in that order; the output sorts " +
      'keys). Nothing in it is a secret.',
  });

export const doctorOutputSchema = z.union([doctorSchema, cliErrorOutputSchema]);
