import type { AuthReport, EnvironmentReport, Problem } from '../doctor/types.js';
import { palette } from './colour.js';
import { safeText } from './safe-text.js';

export interface DoctorTextInput {
  environment: EnvironmentReport;
  auth: AuthReport;
  platformName: string;
  colour: boolean;
}

/**
 * `codexbar doctor` for people: what was found, then each problem with its fix. Token-account labels,
 * source details, notes and problems quote the config file, browser profiles and cursor.com's answers, so
 * they are shown through safeText (docs/invariants.md, "Control characters never reach a terminal").
 */
export function renderDoctorText({ environment, auth, platformName, colour }: DoctorTextInput): string {
  const c = palette(colour);
  const good = (ok: boolean, text: string) => (ok ? c.green(text) : c.red(text));
  const { node, sqlite, config, cache, proxy, network } = environment;
  const configState =
    config.issues.length === 0
      ? config.exists
        ? 'OK'
        : 'not there (the defaults apply)'
      : `${config.issues.length} issue${config.issues.length > 1 ? 's' : ''} (codexbar config validate)`;
  const lines = [
    c.bold('codexbar doctor'),
    '',
    `Node.js      ${node.version} on ${node.platform} ${node.arch}: ${nodeState(node, c)}`,
    `SQLite       ${sqliteLine(sqlite, c)}`,
    `Config       ${config.path}: ${good(!config.issues.some((i) => i.severity === 'error'), configState)}`,
    `Cache        ${cache.path}: ${good(cache.ok, cache.state)}`,
    `Proxy        ${proxy.variables.length === 0 ? 'none set' : [...proxy.proxies, ...(proxy.noProxy ? [`NO_PROXY: ${proxy.noProxy}`] : [])].join('; ')}`,
    `Network      ${network.url}: ${good(network.reachable, network.reachable ? `reachable (${network.detail})` : `unreachable (${network.detail})`)}`,
    '',
    `Credentials, in the order codexbar tries them on ${platformName}:`,
  ];
  const width = Math.max(...auth.sources.map((source) => source.name.length));
  for (const source of auth.sources) {
    const state = { used: c.green, found: c.cyan, rejected: c.red, failed: c.red, skipped: c.gray }[
      source.state
    ];
    lines.push(`  ${source.name.padEnd(width)}  ${state(source.state.padEnd(8))} ${safeText(source.detail)}`);
    for (const note of source.notes) lines.push(`  ${' '.repeat(width)}    ${c.gray(safeText(note))}`);
  }
  if (auth.doors && auth.doors.length > 0) {
    lines.push('', 'Doors to the usage figures:');
    const names = { web: 'web (cursor.com)', rpc: 'rpc (api2)' } as const;
    for (const door of auth.doors) {
      const state = { answers: c.green, rejected: c.red, failed: c.red, unchecked: c.gray }[door.state];
      lines.push(`  ${names[door.door].padEnd(16)}  ${state(door.state.padEnd(9))} ${safeText(door.detail)}`);
    }
  }
  if (auth.accounts.length > 0) {
    lines.push('', 'Token accounts:');
    const accounts = auth.accounts.map((account) => ({ ...account, label: safeText(account.label) }));
    const labelWidth = Math.max(...accounts.map((account) => account.label.length));
    for (const account of accounts) {
      const state = account.state === 'accepted' ? c.green : account.state === 'empty' ? c.yellow : c.red;
      const detail = account.detail && account.state !== 'accepted' ? ` (${safeText(account.detail)})` : '';
      lines.push(
        `  ${account.label.padEnd(labelWidth)}  ${state(account.state)}${detail}${account.active ? ', active' : ''}`,
      );
    }
  }
  lines.push('', ...problemLines([...environment.problems, ...auth.problems], c.yellow));
  return lines.join('\n');
}

function problemLines(problems: readonly Problem[], tint: (text: string) => string): string[] {
  if (problems.length === 0) return ['No problems found.'];
  return [
    tint(`Problems (${problems.length}):`),
    ...problems.flatMap((problem, index) => [
      `  ${index + 1}. ${safeText(problem.problem)}`,
      `     Fix: ${safeText(problem.fix)}`,
    ]),
  ];
}

type Palette = ReturnType<typeof palette>;

function nodeState(node: EnvironmentReport['node'], c: Palette): string {
  if (!node.supported) return c.red('too old');
  if (node.endOfLife === undefined) return c.green('OK');
  return c.yellow(
    `OK, but past end of life since ${node.endOfLife} (no security fixes): use Node.js 24 or 26`,
  );
}

/** The engine and its SQLite version; when better-sqlite3 is not the engine, why and the fix. */
function sqliteLine(sqlite: EnvironmentReport['sqlite'], c: Palette): string {
  if (sqlite.engine === 'none') return c.red(`none: degraded (${safeText(sqlite.reason ?? '')})`);
  const engine = `${sqlite.engine} (SQLite ${safeText(sqlite.version ?? '?')})`;
  if (sqlite.reason === undefined) return `${engine}: ${c.green('OK')}`;
  return `${engine}: ${c.yellow(`OK, ${safeText(sqlite.reason)}; to use it: ${safeText(sqlite.fix ?? '')}`)}`;
}
