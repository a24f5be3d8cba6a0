// The codexbar dashboard (docs/behaviour.md §Serve.13). It reads /usage and /cost from the server that
// served it, the same answers a script gets, and talks to nothing else. No framework: the page must stay
// one small file that a Content-Security-Policy of 'self' allows.

const TOKEN_KEY = 'codexbar.dashboardToken';
const DEFAULT_PERIOD_S = 60;
const MIN_PERIOD_S = 5;
const WEEK_MINUTES = 10080;
const CHART = { width: 720, height: 220, left: 52, right: 8, top: 12, bottom: 28 };

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
const serverInterval = Number(meta('codexbar-refresh-seconds'));
const needsToken = meta('codexbar-auth') === 'bearer';
// docs/behaviour.md §Serve.13: the server's interval, at least 5 s; 60 s when the server caches nothing.
const periodSeconds = serverInterval > 0 ? Math.max(MIN_PERIOD_S, serverInterval) : DEFAULT_PERIOD_S;

const byId = (id) => document.getElementById(id);
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', roundingMode: 'halfEven' });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0, roundingMode: 'halfEven' });
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** What the last answer of each route said; notices and the "fetched" line are drawn from both. */
const state = { usage: undefined, cost: undefined };
let timer;
let loading = false;
/** Completed loads, on <body data-load-count>: tests and tools can wait for the next one. */
let loads = 0;

// ---------- formatting ----------

const money = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? usd.format(value) : 'unknown';
const count = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? whole.format(value) : 'unknown';

function percentLeft(usedPercent) {
  const remaining = Math.min(100, Math.max(0, 100 - usedPercent));
  const text = remaining > 0 && remaining < 1 ? '<1% left' : `${whole.format(remaining)}% left`;
  return { remaining, text };
}

function tone(remaining) {
  if (remaining < 10) return 'bad';
  if (remaining < 25) return 'warn';
  return 'ok';
}

/** docs/behaviour.md §14.2: `in 15d 9h`, `in 3h 5m`, `in 12m`, or `now`; minutes go once days show. */
function countdown(resetsAt) {
  const seconds = (Date.parse(resetsAt) - Date.now()) / 1000;
  if (!(seconds >= 1)) return 'Resets now';
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor(minutes / 60) % 24;
  const m = minutes % 60;
  let text;
  if (d > 0) text = h > 0 ? `${d}d ${h}h` : m > 0 ? `${d}d ${m}m` : `${d}d`;
  else if (h > 0) text = m > 0 ? `${h}h ${m}m` : `${h}h`;
  else text = `${m}m`;
  return `Resets in ${text}`;
}

function ago(iso) {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 36 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

const timeOf = (iso) => clock.format(new Date(iso));

// ---------- DOM helpers ----------

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** A bar whose fill is the share left (role=meter, so screen readers read the figure with its label). */
function meter(label, value, text, toneName) {
  const fill = el('span');
  // CSSOM, not a style attribute: the page's CSP allows no inline styles.
  fill.style.width = `${Math.min(100, Math.max(0, value))}%`;
  return el(
    'div',
    {
      class: `meter ${toneName}`,
      role: 'meter',
      'aria-label': label,
      'aria-valuemin': 0,
      'aria-valuemax': 100,
      'aria-valuenow': Math.round(value * 100) / 100,
      'aria-valuetext': text,
    },
    fill,
  );
}

// ---------- usage ----------

function windowsOf(usage) {
  const weekly = usage.primary?.windowMinutes === WEEK_MINUTES && !usage.secondary && !usage.tertiary;
  const list = [
    ['primary', weekly ? 'Weekly' : 'Total', usage.primary],
    ['secondary', 'Cursor', usage.secondary],
    ['tertiary', 'Third Party', usage.tertiary],
  ];
  for (const extra of usage.extraRateWindows ?? []) list.push([extra.id, extra.title, extra.window]);
  return list.filter(([, , window]) => window);
}

function windowCard(id, label, window, pace, details) {
  const { remaining, text } = percentLeft(window.usedPercent);
  const card = el(
    'article',
    { class: 'card', 'data-window': id },
    el('h3', {}, label),
    el('p', { class: `big ${tone(remaining)}`, 'data-field': 'left', 'data-value': remaining }, text),
    meter(`${label} left`, remaining, text, tone(remaining)),
  );
  if (pace?.summary) card.append(el('p', { class: 'detail', 'data-field': 'pace' }, `Pace: ${pace.summary}`));
  for (const row of details) card.append(el('p', { class: 'detail' }, `${row.label}: ${row.value}`));
  if (window.resetsAt) {
    card.append(el('p', { class: 'detail', 'data-reset': window.resetsAt }, countdown(window.resetsAt)));
  } else if (window.resetDescription) {
    card.append(el('p', { class: 'detail' }, window.resetDescription));
  }
  return card;
}

function spendCard(id, title, used, limit, extraLines) {
  const capped = typeof limit === 'number' && limit > 0;
  const text = capped ? `${money(used)} of ${money(limit)}` : `${money(used)} (no limit)`;
  const card = el(
    'article',
    { class: 'card', 'data-spend': id },
    el('h3', {}, title),
    el('p', { class: 'big', 'data-field': 'used', 'data-value': used }, text),
  );
  if (capped) {
    const share = (used / limit) * 100;
    const left = Math.max(0, 100 - share);
    card.append(meter(`${title} left`, left, `${whole.format(left)}% of the limit left`, tone(left)));
    card.querySelector('.big').setAttribute('data-limit', String(limit));
  }
  for (const line of extraLines) card.append(line);
  return card;
}

function renderUsage(answer) {
  byId('usage-section').hidden = false;
  const row = answer.rows?.[0];
  const errorLine = byId('usage-error');
  const windows = byId('windows');
  const spend = byId('spend');
  if (!row || row.error || !row.usage) {
    // Keep the last good cards on screen only when the server itself failed; an error row replaces them.
    errorLine.hidden = false;
    errorLine.textContent = `Cursor usage is unavailable: ${row?.error?.message ?? 'no data'}`;
    windows.replaceChildren();
    spend.replaceChildren();
    return;
  }
  errorLine.hidden = true;
  const usage = row.usage;
  const details = (usage.details ?? []).flatMap((section) => section.rows ?? []);
  windows.replaceChildren(
    ...windowsOf(usage).map(([id, label, window], index) =>
      windowCard(id, label, window, row.pace?.[id] ?? row.pace?.extra?.[id], index === 0 ? details : []),
    ),
  );
  const cards = [];
  const cost = usage.providerCost;
  if (cost) {
    const lines = [];
    if (typeof cost.personalUsed === 'number' && cost.personalUsed > 0) {
      lines.push(
        el(
          'p',
          { class: 'detail', 'data-field': 'personal', 'data-value': cost.personalUsed },
          `Your share: ${money(cost.personalUsed)}`,
        ),
      );
    }
    if (cost.resetsAt)
      lines.push(el('p', { class: 'detail', 'data-reset': cost.resetsAt }, countdown(cost.resetsAt)));
    cards.push(spendCard('on-demand', 'On-demand spend', cost.used, cost.limit, lines));
  }
  const budget = usage.memberBudget;
  if (budget) cards.push(spendCard('member-budget', 'Team member budget', budget.used, budget.limit, []));
  spend.replaceChildren(...cards);
  const identity = usage.identity ?? {};
  const who = [identity.accountEmail, identity.loginMethod].filter(Boolean).join(' · ');
  byId('account').textContent = who || 'Cursor account';
}

// ---------- cost ----------

/** The window's days, oldest first, from the row's additive `window` and `historyDays`. */
function windowDays(row) {
  const end = row.window?.end ? new Date(Date.parse(row.window.end) - 1) : new Date();
  const zone = row.window?.timeZone ?? 'UTC';
  const key = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(end);
  const [y, m, d] = key.split('-').map(Number);
  const days = [];
  for (let i = (row.historyDays ?? 30) - 1; i >= 0; i--) {
    days.push(new Date(Date.UTC(y, m - 1, d - i)).toISOString().slice(0, 10));
  }
  return days;
}

function dailySeries(row) {
  const byDate = new Map((row.daily ?? []).map((day) => [day.date, day]));
  return windowDays(row).map((date) => {
    const day = byDate.get(date);
    // A day with no entry had no events: zero is known. A day whose cost is absent is unknown, never zero.
    if (!day) return { date, cost: 0, tokens: 0 };
    return { date, cost: day.totalCost, tokens: day.totalTokens };
  });
}

function niceMax(value) {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

function renderChart(series) {
  const { width, height, left, right, top, bottom } = CHART;
  const known = series.filter((day) => typeof day.cost === 'number');
  const max = niceMax(Math.max(0, ...known.map((day) => day.cost)));
  const plotHeight = height - top - bottom;
  const slot = (width - left - right) / series.length;
  const y = (value) => top + plotHeight - (value / max) * plotHeight;
  const total = known.reduce((sum, day) => sum + day.cost, 0);
  const peak = known.reduce((best, day) => (best && best.cost >= day.cost ? best : day), undefined);
  const summary = `Daily API-rate cost for the last ${series.length} days: ${money(total)} in total${
    peak ? `, highest ${money(peak.cost)} on ${peak.date}` : ''
  }. The same figures are in the table below.`;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': summary });
  for (const fraction of [0, 0.5, 1]) {
    const at = y(max * fraction);
    chart.append(svg('line', { class: 'grid', x1: left, x2: width - right, y1: at, y2: at }));
    chart.append(svg('text', { x: left - 6, y: at + 4, 'text-anchor': 'end' }, money(max * fraction)));
  }
  series.forEach((day, index) => {
    const x = left + index * slot + slot * 0.15;
    const barWidth = slot * 0.7;
    const unknown = typeof day.cost !== 'number';
    const barHeight = unknown ? plotHeight : Math.max(day.cost > 0 ? 1 : 0, y(0) - y(day.cost));
    const title = svg('title', {}, `${day.date}: ${unknown ? 'cost unknown' : money(day.cost)}`);
    chart.append(
      svg(
        'rect',
        {
          class: unknown ? 'bar unknown' : 'bar',
          x,
          y: y(0) - barHeight,
          width: barWidth,
          height: barHeight,
          'data-date': day.date,
        },
        title,
      ),
    );
    if (index % 7 === series.length % 7 || index === series.length - 1) {
      const label = dayLabel.format(new Date(`${day.date}T00:00:00Z`));
      chart.append(svg('text', { x: x + barWidth / 2, y: height - 8, 'text-anchor': 'middle' }, label));
    }
  });
  byId('daily-chart').replaceChildren(chart);
}

function totalsItem(label, field, value, text) {
  return el('div', {}, el('dt', {}, label), el('dd', { 'data-field': field, 'data-value': value }, text));
}

function renderCost(answer) {
  byId('cost-section').hidden = false;
  const row = answer.rows?.[0];
  const errorLine = byId('cost-error');
  if (!row || row.error) {
    errorLine.hidden = false;
    errorLine.textContent = `Cursor cost is unavailable: ${row?.error?.message ?? 'no data'}`;
    for (const id of ['cost-totals', 'daily-chart']) byId(id).replaceChildren();
    for (const id of ['daily-table', 'model-table']) byId(id).tBodies[0].replaceChildren();
    byId('cost-note').hidden = true;
    return;
  }
  errorLine.hidden = true;
  byId('cost-totals').replaceChildren(
    totalsItem('API-rate estimate', 'api-rate', row.last30DaysCostUSD, money(row.last30DaysCostUSD)),
    totalsItem('Cursor-metered', 'metered', row.meteredCostUSD, money(row.meteredCostUSD)),
    totalsItem('Tokens', 'tokens', row.last30DaysTokens, count(row.last30DaysTokens)),
    totalsItem('Today', 'today', row.sessionCostUSD, money(row.sessionCostUSD)),
  );
  const unpriced = row.coverage?.unpriced ?? 0;
  const note = byId('cost-note');
  note.hidden = false;
  note.textContent =
    (unpriced > 0
      ? `${count(unpriced)} requests have no known price and are not in the API-rate figures. `
      : '') +
    'API-rate: what the tokens cost at vendor list prices. Cursor-metered: what Cursor charged against your plan.';
  const series = dailySeries(row);
  renderChart(series);
  byId('daily-table').tBodies[0].replaceChildren(
    ...series
      .slice()
      .reverse()
      .map((day) =>
        el(
          'tr',
          { 'data-date': day.date },
          el('th', { scope: 'row' }, day.date),
          el('td', { class: 'num', 'data-field': 'cost', 'data-value': day.cost }, money(day.cost)),
          el('td', { class: 'num' }, count(day.tokens)),
        ),
      ),
  );
  byId('model-table').tBodies[0].replaceChildren(
    ...(row.byModel ?? []).map((model) =>
      el(
        'tr',
        { 'data-model': model.modelName },
        el('th', { scope: 'row' }, model.modelName),
        el(
          'td',
          { class: 'num', 'data-field': 'api-rate', 'data-value': model.apiRateCostUSD },
          money(model.apiRateCostUSD),
        ),
        el(
          'td',
          { class: 'num', 'data-field': 'metered', 'data-value': model.meteredCostUSD },
          money(model.meteredCostUSD),
        ),
        el('td', { class: 'num' }, count(model.totalTokens)),
        el('td', { class: 'num' }, count(model.requests)),
      ),
    ),
  );
}

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
