// The codexbar dashboard. It reads /usage and /cost from the server that
// served it, the same answers a script gets, and talks to nothing else. No framework: the page must stay
// a few small modules that a Content-Security-Policy of 'self' allows.
import { renderCost } from './cost-view.js';
import { el } from './dom.js';
import { ago, countdown, timeOf } from './format.js';
import { renderUsage } from './usage-view.js';

const TOKEN_KEY = 'codexbar.dashboardToken';
const DEFAULT_PERIOD_S = 60;
const MIN_PERIOD_S = 5;
// A day: a browser runs a timer longer than 2^31-1 ms (24.8 days) at once, which would reload in a loop.
const MAX_PERIOD_S = 86_400;

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
const serverInterval = Number(meta('codexbar-refresh-seconds'));
const needsToken = meta('codexbar-auth') === 'bearer';
// The server's interval, from 5 s to a day; 60 s when the server caches nothing.
const periodSeconds =
  serverInterval > 0 ? Math.min(MAX_PERIOD_S, Math.max(MIN_PERIOD_S, serverInterval)) : DEFAULT_PERIOD_S;

const byId = (id) => document.getElementById(id);

/** What the last answer of each route said; notices and the "fetched" line are drawn from both. */
const state = { usage: undefined, cost: undefined };
let timer;
let loading = false;
/** Completed loads, on <body data-load-count>: tests and tools can wait for the next one. */
let loads = 0;

// ---------- notices and freshness ----------

const ROUTE_NAMES = { usage: 'Usage', cost: 'Cost' };

function noticesFor(route, answer) {
  const name = ROUTE_NAMES[route];
  if (!answer) return [];
  if (answer.unreachable) {
    return [
      [
        'error',
        `${name}: the codexbar server did not answer (${answer.unreachable}). Figures shown are from earlier.`,
      ],
    ];
  }
  if (answer.status !== 200) {
    const reason = answer.body?.error ?? 'no details';
    return [
      [
        'error',
        `${name}: the server answered HTTP ${answer.status} (${reason}). Figures shown are from earlier.`,
      ],
    ];
  }
  const row = answer.rows?.[0];
  const list = [];
  if (row?.error) list.push(['error', `${name}: cursor.com could not be read: ${row.error.message}`]);
  if (answer.cache === 'stale' || answer.cache === 'fallback') {
    const when = row?.updatedAt ?? row?.usage?.updatedAt;
    const at = when ? ` from ${timeOf(when)} (${ago(when)})` : '';
    list.push([
      'stale',
      `${name} figures are stale${at}: the latest refresh from cursor.com failed. They update once it works again.`,
    ]);
  }
  return list;
}

function renderNotices() {
  const notices = [...noticesFor('usage', state.usage), ...noticesFor('cost', state.cost)];
  byId('notices').replaceChildren(
    ...notices.map(([kind, text]) => el('p', { class: `notice ${kind}`, 'data-notice': kind }, text)),
  );
  const stale = (answer) =>
    answer && (answer.unreachable || answer.status !== 200 || ['stale', 'fallback'].includes(answer.cache));
  byId('usage-section').classList.toggle('is-stale', Boolean(stale(state.usage)));
  byId('cost-section').classList.toggle('is-stale', Boolean(stale(state.cost)));
}

function renderFreshness() {
  const parts = [];
  const usageAt = state.usage?.rows?.[0]?.usage?.updatedAt;
  const costAt = state.cost?.rows?.[0]?.updatedAt;
  if (usageAt) parts.push(`Usage fetched ${timeOf(usageAt)} (${ago(usageAt)})`);
  if (costAt) parts.push(`cost fetched ${timeOf(costAt)} (${ago(costAt)})`);
  byId('fetched').textContent = parts.length > 0 ? parts.join(' · ') : 'Not loaded yet';
  for (const node of document.querySelectorAll('[data-reset]'))
    node.textContent = countdown(node.getAttribute('data-reset'));
}

// ---------- loading ----------

async function fetchRoute(path) {
  const headers = { Accept: 'application/json' };
  const token = needsToken ? sessionStorage.getItem(TOKEN_KEY) : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const response = await fetch(path, {
      headers,
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
    });
    let body;
    try {
      body = JSON.parse(await response.text());
    } catch {
      body = undefined;
    }
    return {
      status: response.status,
      body,
      rows: response.status === 200 && Array.isArray(body) ? body : undefined,
      cache: response.headers.get('X-CodexBar-Cache'),
    };
  } catch (error) {
    return { unreachable: error instanceof Error ? error.message : String(error) };
  }
}

async function loadRoute(route, render) {
  const answer = await fetchRoute(`/${route}`);
  if (answer.status === 401) return 'unauthorized';
  // A failed request keeps the figures already on screen; the notice says they are from earlier.
  if (answer.rows) render(answer);
  const previous = state[route];
  state[route] = answer.rows || !previous ? answer : { ...answer, rows: previous.rows };
  renderNotices();
  renderFreshness();
  return 'done';
}

async function load() {
  if (loading) return;
  if (needsToken && !sessionStorage.getItem(TOKEN_KEY)) {
    askForToken();
    return;
  }
  loading = true;
  clearTimeout(timer);
  const button = byId('refresh');
  button.disabled = true;
  document.body.setAttribute('aria-busy', 'true');
  try {
    const results = await Promise.all([loadRoute('usage', renderUsage), loadRoute('cost', renderCost)]);
    if (results.includes('unauthorized')) {
      sessionStorage.removeItem(TOKEN_KEY);
      askForToken('That token was not accepted. Check it and try again.');
      return;
    }
    loads += 1;
    document.body.setAttribute('data-load-count', String(loads));
  } finally {
    loading = false;
    button.disabled = false;
    document.body.removeAttribute('aria-busy');
    if (!needsToken || sessionStorage.getItem(TOKEN_KEY)) timer = setTimeout(load, periodSeconds * 1000);
  }
}

function askForToken(message) {
  const form = byId('token-form');
  form.hidden = false;
  byId('usage-section').hidden = true;
  byId('cost-section').hidden = true;
  byId('account').textContent = 'Locked: this dashboard needs its token';
  byId('fetched').textContent = 'Not loaded yet';
  const error = byId('token-error');
  error.hidden = !message;
  error.textContent = message ?? '';
  byId('token-input').focus();
}

byId('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId('token-input');
  const token = input.value.trim();
  if (!token) {
    askForToken('Enter the dashboard token.');
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  input.value = '';
  byId('token-form').hidden = true;
  void load();
});

byId('refresh').addEventListener('click', () => void load());
byId('interval').textContent = String(periodSeconds);
setInterval(renderFreshness, 15_000);
void load();
