/**
 * The dashboard's stale and error states and its token prompt
 * (docs/invariants.md, "Servers safe by default"), with `serve` in-process so the test steps the server's
 * clock, and Playwright's clock stepping the page's: the page's own refresh timer drives every reload, and
 * nothing waits for the refresh interval.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventsHandler } from '../fake-cursor/events.js';
import type { FakeResponse } from '../fake-cursor/server.js';
import type { EventsScenario } from '../fake-cursor/types.js';
import {
  SERVE_NOW,
  SESSION_VALUE,
  type ServeHarness,
  serveAccount,
  startServeHarness,
  until,
} from '../helpers/serve.js';
import { teamAccount } from '../helpers/team-fixtures.js';
import {
  type BrowserSession,
  consoleProblems,
  openBrowser,
  screenshot,
  seriousViolations,
  waitForLoads,
} from './browser.js';

let serve: ServeHarness | undefined;
let browser: BrowserSession | undefined;
afterEach(async () => {
  await browser?.close();
  await serve?.close();
  browser = undefined;
  serve = undefined;
});

/** Steps both clocks, which lets the page's refresh timer fire, and waits for that load to finish. */
async function elapse(page: Page, harness: ServeHarness, seconds: number, loads: number): Promise<void> {
  harness.clock.advance(seconds);
  await page.clock.fastForward(seconds * 1000);
  await waitForLoads(page, loads);
}

const notices = (page: Page) =>
  page
    .locator('[data-notice]')
    .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-notice'), node.textContent]));

describe('stale and error states', () => {
  it('fresh, then stale while cursor.com fails, then an error row, then the server gone', async () => {
    let failing = false;
    const summary = serveAccount().usageSummary as FakeResponse;
    const events = createEventsHandler(serveAccount().events as EventsScenario);
    serve = await startServeHarness({
      accounts: [
        serveAccount(undefined, {
          usageSummary: () => (failing ? { status: 500, json: { error: 'down' } } : summary),
          events: (request, attempt) =>
            failing ? { status: 400, json: { error: 'bad' } } : events(request, attempt),
        }),
      ],
    });
    const harness = serve;
    browser = await openBrowser();
    const { page } = browser;
    await page.clock.install({ time: SERVE_NOW });
    await page.goto(`http://127.0.0.1:${harness.server.port}/`);
    await waitForLoads(page, 1);
    expect(await notices(page)).toEqual([]);
    expect(await page.locator('[data-window="primary"] [data-field="left"]').textContent()).toBe('55% left');

    // One interval later cursor.com fails: the first refresh is still "refreshing", no notice yet.
    failing = true;
    await elapse(page, harness, 61, 2);
    expect(await notices(page)).toEqual([]);
    await until(() => harness.server.data.runningFetches() === 0, 'the background refreshes');

    // The next interval: the refresh failed, so the figures on screen are stale, and the page says so.
    await elapse(page, harness, 61, 3);
    expect(await notices(page)).toEqual([
      [
        'stale',
        expect.stringMatching(
          /^Usage figures are stale from .+ \(2 min ago\): the latest refresh from cursor\.com failed/,
        ),
      ],
      ['stale', expect.stringMatching(/^Cost figures are stale from .+ \(2 min ago\)/)],
    ]);
    expect(await page.locator('#usage-section').getAttribute('class')).toContain('is-stale');
    expect(await page.locator('[data-window="primary"] [data-field="left"]').textContent()).toBe('55% left');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-stale');
    await until(() => harness.server.data.runningFetches() === 0, 'the background refreshes');

    // Past the stale window: usage is an error row (nothing may stand in for it); cost falls back to its
    // last good row, still marked stale.
    await elapse(page, harness, 600, 4);
    expect(await notices(page)).toEqual([
      ['error', expect.stringMatching(/^Usage: cursor\.com could not be read: Cursor API error: .*500/)],
      ['stale', expect.stringMatching(/^Cost figures are stale/)],
    ]);
    expect(await page.locator('#usage-error').textContent()).toMatch(/^Cursor usage is unavailable: /);
    expect(await page.locator('[data-window]').count()).toBe(0);
    expect(await page.locator('#model-table tbody tr').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-error');
    expect(consoleProblems(browser)).toEqual([]);

    // The server stops: the page keeps the last figures and says the server did not answer.
    await harness.server.stop();
    await page.locator('#refresh').click();
    await waitForLoads(page, 5);
    const gone = await notices(page);
    expect(gone.map(([kind]) => kind)).toEqual(['error', 'error']);
    expect(gone[0]?.[1]).toMatch(/^Usage: the codexbar server did not answer/);
    expect(await page.locator('#model-table tbody tr').count()).toBeGreaterThan(0);
    expect(browser.pageErrors).toEqual([]);
  });
});

describe('token prompt on a non-loopback bind (127.0.0.2, --allow-plain-http)', () => {
  it('asks once, keeps the token in sessionStorage, sends it as a Bearer header, asks again after a 401', async () => {
    serve = await startServeHarness({
      flags: { host: '127.0.0.2', allowPlainHttp: true },
      env: { CODEXBAR_DASHBOARD_TOKEN: 'dash-token-123' },
    });
    const origin = `http://127.0.0.2:${serve.server.port}`;
    browser = await openBrowser();
    const { page } = browser;
    await page.goto(`${origin}/`);
    await page.locator('#token-form').waitFor({ state: 'visible' });
    expect(await page.locator('#usage-section').isHidden()).toBe(true);
    const dataRequests = () => browser!.requests.filter((request) => /\/(usage|cost)$/.test(request.url));
    expect(dataRequests()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-token-prompt');

    await page.locator('#token-input').fill('not-the-token');
    await page.locator('#token-form button[type="submit"]').click();
    await page.locator('#token-error').waitFor({ state: 'visible' });
    expect(await page.locator('#token-error').textContent()).toBe(
      'That token was not accepted. Check it and try again.',
    );
    expect(await page.evaluate("sessionStorage.getItem('codexbar.dashboardToken')")).toBeNull();

    await page.locator('#token-input').fill('dash-token-123');
    await page.locator('#token-form button[type="submit"]').click();
    await waitForLoads(page, 1);
    expect(await page.locator('#token-form').isHidden()).toBe(true);
    expect(await page.locator('[data-window="primary"] [data-field="left"]').textContent()).toBe('55% left');
    expect(await page.evaluate("sessionStorage.getItem('codexbar.dashboardToken')")).toBe('dash-token-123');
    expect(
      dataRequests()
        .slice(-2)
        .map((request) => request.headers.authorization),
    ).toEqual(['Bearer dash-token-123', 'Bearer dash-token-123']);

    // A reload in the same tab needs no prompt.
    await page.reload();
    await waitForLoads(page, 1);
    expect(await page.locator('#token-form').isHidden()).toBe(true);

    for (const request of browser.requests) expect(new URL(request.url).origin).toBe(origin);
    // The only console errors are the two 401s of the wrong token.
    expect(consoleProblems(browser)).toEqual([expect.stringMatching(/401/), expect.stringMatching(/401/)]);
    expect(browser.pageErrors).toEqual([]);
  });
});

describe('a Business or Enterprise member', () => {
  it('shows the verified member budget and the member’s share of the team’s on-demand pool', async () => {
    const now = new Date('2026-07-20T15:00:00Z');
    serve = await startServeHarness({
      accounts: [teamAccount([SESSION_VALUE], { events: { events: [] } })],
      now,
    });
    browser = await openBrowser();
    const { page } = browser;
    await page.clock.install({ time: now });
    await page.goto(`http://127.0.0.1:${serve.server.port}/`);
    await waitForLoads(page, 1);
    const budget = page.locator('[data-spend="member-budget"] [data-field="used"]');
    expect(await budget.textContent()).toBe('$84.21 of $150.00');
    expect(await budget.getAttribute('data-value')).toBe('84.21');
    expect(await budget.getAttribute('data-limit')).toBe('150');
    expect(await page.locator('[data-spend="on-demand"] [data-field="used"]').textContent()).toBe(
      '$312.50 of $1,000.00',
    );
    expect(await page.locator('[data-spend="on-demand"] [data-field="personal"]').textContent()).toBe(
      'Your share: $44.71',
    );
    expect(await page.locator('#account').textContent()).toBe('dev@acme.com · Cursor Enterprise');
    // No events in the window: zero is known here, so the totals say $0.00 rather than "unknown".
    expect(await page.locator('#cost-totals [data-field="api-rate"]').textContent()).toBe('$0.00');
    expect(await page.locator('#model-table tbody').textContent()).toBe('No requests in this window.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-team-member');
    expect(consoleProblems(browser)).toEqual([]);
  });
});
