import { safeText } from '../render/safe-text.js';
import type { Level } from './thresholds.js';

/**
 * What an alert says, the same on every channel: a title, one sentence, and the figures as environment
 * variables for `--exec`. Pure. Text from cursor.com (a window's title) and a token account's label have their
 * control characters made visible (docs/invariants.md, "Control characters never reach a terminal"): a
 * notification or a chat message is read on a screen too. Nothing here is a credential.
 */

export interface Alert {
  /** The token account's label, when a flag named the account. */
  account?: string;
  level: Level;
  threshold: number;
}

export interface AlertMessage {
  title: string;
  text: string;
}

function formatPercent(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

const dollars = (value: number) => `$${value.toFixed(2)}`;

export function alertMessage(alert: Alert): AlertMessage {
  const { level, threshold } = alert;
  const who = alert.account === undefined ? '' : ` (${safeText(alert.account)})`;
  const percent = `${formatPercent(level.percent)}%`;
  const reset = level.resetDescription === undefined ? '' : ` ${safeText(level.resetDescription)}.`;
  if (level.kind === 'on-demand') {
    return {
      title: `Cursor on-demand${who}: ${percent} of the limit`,
      text: `Cursor on-demand spend${who} is ${dollars(level.usedUSD ?? 0)} of ${dollars(level.limitUSD ?? 0)} (${percent}), past the ${formatPercent(threshold)}% alert.${reset}`,
    };
  }
  return {
    title: `Cursor usage${who}: ${percent} used`,
    text: `Cursor ${safeText(level.window)}${who} is at ${percent} used, past the ${formatPercent(threshold)}% alert.${reset}`,
  };
}

/** `--exec`'s figures: `CODEXBAR_ALERT_*`, each a plain string (undefined ones are left out). */
export function alertEnvironment(alert: Alert, message: AlertMessage): Record<string, string> {
  const { level } = alert;
  const figures: Record<string, string | undefined> = {
    CODEXBAR_ALERT_KIND: level.kind,
    CODEXBAR_ALERT_THRESHOLD: String(alert.threshold),
    CODEXBAR_ALERT_PERCENT: formatPercent(level.percent),
    CODEXBAR_ALERT_WINDOW: safeText(level.window),
    CODEXBAR_ALERT_CYCLE_END: level.cycle,
    CODEXBAR_ALERT_ACCOUNT: alert.account === undefined ? undefined : safeText(alert.account),
    CODEXBAR_ALERT_USED_USD: level.usedUSD === undefined ? undefined : level.usedUSD.toFixed(2),
    CODEXBAR_ALERT_LIMIT_USD: level.limitUSD === undefined ? undefined : level.limitUSD.toFixed(2),
    CODEXBAR_ALERT_TITLE: message.title,
    CODEXBAR_ALERT_TEXT: message.text,
  };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(figures)) if (value !== undefined) env[key] = value;
  return env;
}
