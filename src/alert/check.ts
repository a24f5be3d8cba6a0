import path from 'node:path';
import { CodexbarError } from '../errors.js';
import type { ObtainedUsage } from '../session/usage-cache.js';
import { type Delivery, DeliveryError } from './deliver.js';
import { type Alert, type AlertMessage, alertMessage } from './message.js';
import { alertRecordPath, readAlertRecord, withAlertLock, writeAlertRecord } from './state.js';
import { type Channel, dueThreshold, type Level, onDemandLevel, planLevel, trackFor } from './thresholds.js';

/**
 * One account's check: its levels (thresholds.ts) against its record (state.ts), under the record's lock,
 * the due alerts delivered (deliver.ts) while it is held, and the record written with what was delivered;
 * what failed stays due for the next run.
 */

/** Plan thresholds when neither `--at` nor `--on-demand-at` is given. */
const DEFAULT_AT = [80, 95];

/** A check that cannot keep its record. */
class AlertStateError extends CodexbarError {
  readonly code = 'alert_state';
}

export interface AlertSettings {
  at?: number[];
  onDemandAt?: number[];
  /** Milliseconds. */
  deliveryTimeout: number;
}

export interface AccountContext {
  /** The token account's label, when a flag named the account. */
  label?: string;
  timeZone: string;
  channels: readonly Delivery[];
  log: (line: string) => void;
}

interface Check {
  level: Level;
  thresholds: readonly number[];
}

/** One alert a run tried to send, and where it went. */
export interface Sent {
  alert: Alert;
  message: AlertMessage;
  delivered: Channel[];
  failed: { channel: Channel; error: DeliveryError }[];
}

/**
 * One account: its levels against the record, under the record's lock, the due alerts delivered while it is
 * held, and the record written with what was delivered (what failed stays due).
 */
export async function checkAccount(
  flags: AlertSettings,
  usage: ObtainedUsage,
  { label, timeZone, channels, log }: AccountContext,
): Promise<Sent[]> {
  if (usage.account === undefined || usage.cacheDir === undefined) {
    throw new AlertStateError(
      usage.account === undefined
        ? 'Cannot keep a record of sent alerts: the session names no cursor.com user id.'
        : 'Cannot keep a record of sent alerts: the cache directory is not an absolute path on this machine.',
    );
  }
  const checks: Check[] = [];
  const plan = planLevel(usage.snapshot);
  const planThresholds = flags.at ?? (flags.onDemandAt === undefined ? DEFAULT_AT : undefined);
  if (plan && planThresholds) checks.push({ level: plan, thresholds: planThresholds });
  const onDemand = onDemandLevel(usage.snapshot, timeZone);
  if (onDemand && flags.onDemandAt) checks.push({ level: onDemand, thresholds: flags.onDemandAt });
  for (const { level } of checks)
    log(
      `[alert] ${level.kind}: ${Math.round(level.percent * 10) / 10}% (${level.window}), cycle ${level.cycle ?? 'unknown'}`,
    );

  const file = alertRecordPath(path.dirname(usage.cacheDir), usage.account);
  // At most one group of deliveries per channel and kind, one after the other.
  const holdMs = flags.deliveryTimeout * channels.length * 2;
  return withAlertLock(file, holdMs, async () => {
    const { record, rebuilt } = readAlertRecord(file);
    if (rebuilt) log(`[alert] The record of sent alerts was unusable (${rebuilt}); rebuilding it`);
    let changed = rebuilt !== undefined;
    const sent: Sent[] = [];
    for (const { level, thresholds } of checks) {
      const recorded = record.tracks[level.kind];
      const track = trackFor(recorded, level.cycle);
      if (track === undefined) {
        log(`[alert] ${level.kind}: the snapshot is from an earlier cycle than the record; nothing is due`);
        continue;
      }
      if (track !== recorded) {
        record.tracks[level.kind] = track;
        changed = true;
      }
      const due = new Map<number, Delivery[]>();
      for (const delivery of channels) {
        const threshold = dueThreshold(thresholds, level.percent, track.sent[delivery.channel]);
        if (threshold !== undefined) due.set(threshold, [...(due.get(threshold) ?? []), delivery]);
      }
      for (const [threshold, group] of due) {
        const alert: Alert = { level, threshold };
        if (label !== undefined) alert.account = label;
        const message = alertMessage(alert);
        const results = await Promise.allSettled(group.map((delivery) => delivery.deliver(alert, message)));
        const entry: Sent = { alert, message, delivered: [], failed: [] };
        results.forEach((result, index) => {
          const { channel } = group[index]!;
          if (result.status === 'fulfilled') {
            entry.delivered.push(channel);
            track.sent[channel] = threshold;
            changed = true;
          } else {
            const error =
              result.reason instanceof DeliveryError
                ? result.reason
                : new DeliveryError(String(result.reason));
            entry.failed.push({ channel, error });
          }
        });
        sent.push(entry);
      }
    }
    if (changed) writeAlertRecord(file, record);
    return sent;
  });
}
