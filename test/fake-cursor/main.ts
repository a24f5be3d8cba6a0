/**
 * Manual runs: `npx tsx test/fake-cursor/main.ts fixtures/demo/account.json [--cookie VALUE] [--latency MS]`
 * starts the fake cursor.com with a scenario file (see scenario-file.ts) and prints its URL.
 * Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { loadScenarioFile } from './scenario-file.js';
import { startFakeCursor } from './server.js';

// A made-up session value for hand-testing; it authorises nothing outside this fake.
const DEFAULT_FAKE_SESSION = 'fake-session';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { cookie: { type: 'string' }, latency: { type: 'string' } },
  });
  const file = positionals[0];
  if (!file) {
    console.error('usage: npx tsx test/fake-cursor/main.ts <scenario.json> [--cookie VALUE] [--latency MS]');
    process.exitCode = 1;
    return;
  }
  const session = values.cookie ?? DEFAULT_FAKE_SESSION;
  const accounts = loadScenarioFile(file, new Date()).map((account) => ({
    ...account,
    cookies: [...account.cookies, session],
  }));
  const fake = await startFakeCursor({ accounts, latencyMs: Number(values.latency ?? 0) });

  console.log(`fake cursor.com listening on ${fake.url} (${accounts.length} account(s) from ${file})`);
  if (values.cookie === undefined) {
    console.log(
      `try: CODEXBAR_CURSOR_BASE_URL=${fake.url} node bin/codexbar.js usage --cookie 'WorkosCursorSessionToken=${DEFAULT_FAKE_SESSION}'`,
    );
  }
  process.once('SIGINT', () => {
    console.log(`\n${fake.requests.length} request(s) served; stopping.`);
    void fake.close();
  });
}

await main();
