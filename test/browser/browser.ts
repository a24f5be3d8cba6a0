/**
 * Headless Chromium for the dashboard tests: the system browser (Debian package `chromium`) driven by
 * playwright-core, a fresh profile per test, and a record of every request, console message and page
 * error so tests can assert that the page talks to nobody but the server and logs no errors.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { repoRoot } from '../helpers/cli.js';

const CHROMIUM = process.env.CODEXBAR_CHROMIUM ?? '/usr/bin/chromium';
/** Without the background-networking flags Chromium phones home, and on a closed network that fails. */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const RESULTS_DIR = path.join(repoRoot, 'test-results');

export interface ConsoleEntry {
  type: string;
  text: string;
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Every URL the page asked for (documents, scripts, styles, images, fetches). */
  requests: Array<{ url: string; headers: Record<string, string> }>;
  console: ConsoleEntry[];
  pageErrors: string[];
  close(): Promise<void>;
}

export async function openBrowser(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<BrowserSession> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (or set CODEXBAR_CHROMIUM).`,
    );
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1200, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const session: BrowserSession = {
    context,
    page: context.pages()[0] ?? (await context.newPage()),
    requests: [],
    console: [],
    pageErrors: [],
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
  context.on('request', (request) =>
    session.requests.push({ url: request.url(), headers: request.headers() }),
  );
  session.page.on('console', (message) =>
    session.console.push({ type: message.type(), text: message.text() }),
  );
  session.page.on('pageerror', (error) => session.pageErrors.push(error.message));
  return session;
}

/** Waits until the page has finished `count` loads of /usage and /cost. */
export async function waitForLoads(page: Page, count: number): Promise<void> {
  // A function, not a string: Playwright evals a string predicate, which the page's CSP rightly forbids.
  // This file is type-checked without the DOM library, hence the narrow cast.
  await page.waitForFunction(
    (n) => {
      const { body } = (globalThis as unknown as { document: { body: { dataset: Record<string, string> } } })
        .document;
      return Number(body.dataset.loadCount ?? 0) >= n;
    },
    count,
    { polling: 50 },
  );
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core in the page. It is evaluated through the DevTools protocol, which the page's CSP does not
 * govern, so the CSP under test stays exactly as served.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    `axe.run(document).then((result) => result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((node) => node.target.join(' ')),
    })))`,
  )) as AxeViolation[];
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Console entries a clean page must not produce. */
export function consoleProblems(session: BrowserSession): string[] {
  return [
    ...session.console
      .filter((entry) => entry.type === 'error' || entry.type === 'warning')
      .map((entry) => `${entry.type}: ${entry.text}`),
    ...session.pageErrors.map((message) => `pageerror: ${message}`),
  ];
}
