// The cost panel: totals, the daily chart (inline SVG) with its table, and the per-model table, from a /cost
// row. An unknown figure is shown as unknown, never as zero (docs/invariants.md, "No unknown price as zero").
import { el, svg } from './dom.js';
import { count, money } from './format.js';

const CHART = { width: 720, height: 220, left: 52, right: 8, top: 12, bottom: 28 };
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const byId = (id) => document.getElementById(id);

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

export function renderCost(answer) {
  byId('cost-section').hidden = false;
  const row = answer.rows?.[0];
  const errorLine = byId('cost-error');
  if (!row || row.error) {
    errorLine.hidden = false;
    errorLine.textContent = `Cursor cost is unavailable: ${row?.error?.message ?? 'no data'}`;
    // Nothing may stand in for figures nobody knows: the totals, chart and tables go away.
    byId('cost-body').hidden = true;
    for (const id of ['cost-totals', 'daily-chart']) byId(id).replaceChildren();
    for (const id of ['daily-table', 'model-table']) byId(id).tBodies[0].replaceChildren();
    return;
  }
  errorLine.hidden = true;
  byId('cost-body').hidden = false;
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
  const models = row.byModel ?? [];
  const noModels = el('tr', {}, el('td', { colspan: 5 }, 'No requests in this window.'));
  byId('model-table').tBodies[0].replaceChildren(
    ...(models.length === 0 ? [noModels] : []),
    ...models.map((model) =>
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
