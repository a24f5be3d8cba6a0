// The usage panel: one card per window (percent left, bar, pace, reset countdown), then on-demand spend and
// the team member budget, from a /usage row.
import { el, meter } from './dom.js';
import { countdown, money, percentLeft, tone, whole } from './format.js';

const WEEK_MINUTES = 10080;
const byId = (id) => document.getElementById(id);

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

export function renderUsage(answer) {
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
