/**
 * The dashboard page in headless Chromium against the BUILT `codexbar serve` and the fake cursor.com with the
 * bundled sample account (docs/invariants.md, "Servers safe by default"): the figures on the page are the
 * ones /usage and /cost return, the console is clean, every request goes to the server, and axe finds nothing
 * serious. Screenshots land in test-results/.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoAccount } from '../../fixtures/demo/account.js';
import { formatCount, formatFixed, formatUSD } from '../../src/render/format.js';
import { formatCountdown } from '../../src/usage/countdown.js';
import { repoRoot } from '../helpers/cli.js';
import { type OpenScene, openScene } from '../helpers/scene.js';
import { freePort, httpGet } from '../helpers/serve.js';
import { type ServeProcess, spawnServe } from '../helpers/serve-process.js';
import {
  type BrowserSession,
  consoleProblems,
  openBrowser,
  screenshot,
  seriousViolations,
  waitForLoads,
} from './browser.js';

const SESSION = 'user_demo%3A%3Abrowser-session';

interface Window {
  usedPercent: number;
  resetsAt?: string;
}
interface UsageRow {
  usage: {
    primary: Window | null;
    secondary: Window | null;
    tertiary: Window | null;
    extraRateWindows?: Array<{ id: string; title: string; window: Window }>;
    providerCost?: { used: number; limit: number; personalUsed?: number };
    accountEmail?: string;
    loginMethod?: string;
  };
  pace?: Record<string, { summary: string } | Record<string, { summary: string }>>;
}
interface CostRow {
  last30DaysCostUSD?: number;
  meteredCostUSD?: number;
  last30DaysTokens?: number;
  sessionCostUSD?: number;
  historyDays: number;
  daily: Array<{ date: string; totalCost?: number }>;
  byModel: Array<{ modelName: string; apiRateCostUSD?: number; meteredCostUSD?: number }>;
}

let scene: OpenScene;
let served: ServeProcess;
let origin: string;
let port: number;

beforeAll(async () => {
  scene = openScene();
  const fake = await scene.serve([loadDemoAccount(new Date(), SESSION)]);
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  served = await spawnServe(path.join(repoRoot, 'bin', 'codexbar.js'), ['--port', String(port)], {
    PATH: process.env.PATH ?? '',
    HOME: scene.home,
    TZ: 'UTC',
    CODEXBAR_CURSOR_BASE_URL: fake.url,
    CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${SESSION}`,
  });
});

afterAll(async () => {
  served?.child.kill('SIGTERM');
  await scene?.close();
});

const text = (page: Page, selector: string) => page.locator(selector).textContent();
const value = async (page: Page, selector: string) => page.locator(selector).getAttribute('data-value');
const left = (usedPercent: number) => Math.min(100, Math.max(0, 100 - usedPercent));

async function expectWindow(page: Page, id: string, window: Window, pace: { summary: string } | undefined) {
  const card = `[data-window="${id}"]`;
  expect(Number(await value(page, `${card} [data-field="left"]`))).toBe(left(window.usedPercent));
  expect(await text(page, `${card} [data-field="left"]`)).toBe(
    `${formatFixed(left(window.usedPercent), 0)}% left`,
  );
  expect(await page.locator(`${card} [role="meter"]`).getAttribute('aria-valuetext')).toBe(
    `${formatFixed(left(window.usedPercent), 0)}% left`,
  );
  if (pace) expect(await text(page, `${card} [data-field="pace"]`)).toBe(`Pace: ${pace.summary}`);
  if (window.resetsAt) {
    const shown = await text(page, `${card} [data-reset]`);
    const seconds = (Date.parse(window.resetsAt) - Date.now()) / 1000;
    // The page and the test read the clock a moment apart: either side of a minute boundary is right.
    expect([`Resets ${formatCountdown(seconds)}`, `Resets ${formatCountdown(seconds + 60)}`]).toContain(
      shown,
    );
  }
}

describe('the dashboard page in Chromium (loopback bind, built CLI)', () => {
  let browser: BrowserSession;
  let usage: UsageRow;
  let cost: CostRow;

  beforeAll(async () => {
    browser = await openBrowser();
    await browser.page.goto(`${origin}/`);
    await waitForLoads(browser.page, 1);
    // Inside the refresh interval these are the answers the page got.
    usage = ((await httpGet('127.0.0.1', port, '/usage')).json() as UsageRow[])[0]!;
    cost = ((await httpGet('127.0.0.1', port, '/cost')).json() as CostRow[])[0]!;
  });
  afterAll(() => browser?.close());

  it('shows every usage window as /usage has it: percent left, bar, pace, reset countdown', async () => {
    const { page } = browser;
    const pace = usage.pace as Record<string, { summary: string }> & {
      extra?: Record<string, { summary: string }>;
    };
    await expectWindow(page, 'primary', usage.usage.primary!, pace.primary);
    await expectWindow(page, 'secondary', usage.usage.secondary!, pace.secondary);
    await expectWindow(page, 'tertiary', usage.usage.tertiary!, pace.tertiary);
    for (const extra of usage.usage.extraRateWindows ?? []) {
      await expectWindow(page, extra.id, extra.window, pace.extra?.[extra.id]);
      expect(await text(page, `[data-window="${extra.id}"] h3`)).toBe(extra.title);
    }
    expect(await page.locator('[data-window]').count()).toBe(3 + (usage.usage.extraRateWindows?.length ?? 0));
    expect(await page.locator('[data-window] h3').allInnerTexts()).toEqual(
      expect.arrayContaining(['Total', 'Cursor', 'Third Party']),
    );
  });

  it('shows on-demand spend and limit, the plan and the account', async () => {
    const { page } = browser;
    const spend = usage.usage.providerCost!;
    const used = '[data-spend="on-demand"] [data-field="used"]';
    expect(Number(await value(page, used))).toBe(spend.used);
    expect(Number(await page.locator(used).getAttribute('data-limit'))).toBe(spend.limit);
    expect(await text(page, used)).toBe(`${formatUSD(spend.used)} of ${formatUSD(spend.limit)}`);
    expect(await text(page, '#account')).toBe(`${usage.usage.accountEmail} · ${usage.usage.loginMethod}`);
  });

  it('shows the cost totals, every day of the window (chart and table) and every model as /cost has them', async () => {
    const { page } = browser;
    for (const [field, expected, format] of [
      ['api-rate', cost.last30DaysCostUSD, formatUSD],
      ['metered', cost.meteredCostUSD, formatUSD],
      ['tokens', cost.last30DaysTokens, formatCount],
      ['today', cost.sessionCostUSD, formatUSD],
    ] as const) {
      expect(Number(await value(page, `#cost-totals [data-field="${field}"]`))).toBe(expected);
      expect(await text(page, `#cost-totals [data-field="${field}"]`)).toBe(format(expected));
    }
    expect(await page.locator('#daily-table tbody tr').count()).toBe(cost.historyDays);
    expect(await page.locator('#daily-chart rect[data-date]').count()).toBe(cost.historyDays);
    for (const day of cost.daily) {
      const cell = `#daily-table tr[data-date="${day.date}"] [data-field="cost"]`;
      expect(Number(await value(page, cell))).toBe(day.totalCost);
      expect(await page.locator(cell).textContent()).toBe(formatUSD(day.totalCost));
      expect(await page.locator(`#daily-chart rect[data-date="${day.date}"] title`).textContent()).toBe(
        `${day.date}: ${formatUSD(day.totalCost)}`,
      );
    }
    expect(await page.locator('#model-table tbody tr').count()).toBe(cost.byModel.length);
    for (const model of cost.byModel) {
      const row = `#model-table tr[data-model="${model.modelName}"]`;
      expect(Number(await value(page, `${row} [data-field="api-rate"]`))).toBe(model.apiRateCostUSD);
      expect(Number(await value(page, `${row} [data-field="metered"]`))).toBe(model.meteredCostUSD);
    }
    expect(await page.locator('#daily-chart svg').getAttribute('aria-label')).toContain(
      `${formatUSD(cost.last30DaysCostUSD)} in total`,
    );
  });

  it('says when the data was fetched, with no stale or error notice', async () => {
    expect(await text(browser.page, '#fetched')).toMatch(
      /^Usage fetched .+ \(just now\) · cost fetched .+ \(just now\)$/,
    );
    expect(await browser.page.locator('[data-notice]').count()).toBe(0);
  });

  it('asks nobody but the server: every request is same-origin, and none carries a token', async () => {
    expect(browser.requests.length).toBeGreaterThanOrEqual(6);
    for (const request of browser.requests) {
      expect(new URL(request.url).origin, request.url).toBe(origin);
      expect(request.headers.authorization).toBeUndefined();
    }
    const paths = browser.requests.map((request) => new URL(request.url).pathname);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/js/app.js',
        '/js/format.js',
        '/app.css',
        '/usage',
        '/cost',
        '/icons/cursor.svg',
      ]),
    );
  });

  it('the console shows no errors or warnings (CSP violations included)', () => {
    expect(consoleProblems(browser)).toEqual([]);
  });

  it('axe finds no serious or critical violations, in light and dark mode; screenshots are kept', async () => {
    const { page } = browser;
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-dark');
    await page.locator('.table-details summary').click();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('the page under a serve --refresh-interval past what a browser timer holds', () => {
  it('refreshes at most once a day, not in a loop: one load, and the interval it says is 86400 s', async () => {
    const longScene = openScene();
    const fake = await longScene.serve([loadDemoAccount(new Date(), SESSION)]);
    const longPort = await freePort();
    const long = await spawnServe(
      path.join(repoRoot, 'bin', 'codexbar.js'),
      ['--port', String(longPort), '--refresh-interval', '3000000'],
      {
        PATH: process.env.PATH ?? '',
        HOME: longScene.home,
        TZ: 'UTC',
        CODEXBAR_CURSOR_BASE_URL: fake.url,
        CODEXBAR_CURSOR_COOKIE: `WorkosCursorSessionToken=${SESSION}`,
      },
    );
    const browser = await openBrowser();
    try {
      await browser.page.goto(`http://127.0.0.1:${longPort}/`);
      await waitForLoads(browser.page, 1);
      // Past many turns of a 1 ms timer: a page that reloads in a loop has loaded again by now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await browser.page.locator('body').getAttribute('data-load-count')).toBe('1');
      expect(await text(browser.page, '#interval')).toBe('86400');
    } finally {
      await browser.close();
      long.child.kill('SIGTERM');
      await longScene.close();
    }
  });
});
