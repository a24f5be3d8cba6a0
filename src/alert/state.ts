import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFileAtomic } from '../cache/private-files.js';
import { withFileLock } from '../config/lock.js';
import { readTextFileSync } from '../local/read-file-sync.js';
import { type AlertKind, CHANNELS, type Track } from './thresholds.js';

/**
 * The record of what `codexbar alert` has sent: `<cache dir>/codexbar/alert/<account key>.json`, owner-only
 * and written atomically (docs/invariants.md, "Owner-only atomic files"), named by the account key, never by
 * a credential (docs/invariants.md, "Keyed by account, never by credential"). A run reads, delivers and
 * writes it under one lock beside it, so concurrent runs never send the same alert twice.
 */

export interface AlertRecord {
  version: 1;
  tracks: Partial<Record<AlertKind, Track>>;
}

/** Far more than a record of two tracks of three channels. */
const RECORD_LIMIT = 64 * 1024;

const sentSchema = z
  .object(Object.fromEntries(CHANNELS.map((channel) => [channel, z.number().min(0).max(100).optional()])))
  .strict();

const trackSchema = z.object({ cycle: z.string().nullable(), sent: sentSchema }).strict();

const recordSchema = z
  .object({
    version: z.literal(1),
    tracks: z.object({ plan: trackSchema.optional(), 'on-demand': trackSchema.optional() }).strict(),
  })
  .strict();

function alertDir(codexbarDir: string): string {
  return path.join(codexbarDir, 'alert');
}

export function alertRecordPath(codexbarDir: string, account: string): string {
  return path.join(alertDir(codexbarDir), `${account}.json`);
}

/** The record, or an empty one: `rebuilt` when a file was there but unusable (it is written anew). */
export interface RecordRead {
  record: AlertRecord;
  rebuilt?: string;
}

export function readAlertRecord(file: string): RecordRead {
  const empty: AlertRecord = { version: 1, tracks: {} };
  const read = readTextFileSync(file, RECORD_LIMIT);
  if (read.kind === 'missing') return { record: empty };
  if (read.kind === 'unreadable') return { record: empty, rebuilt: read.reason };
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch {
    return { record: empty, rebuilt: 'not JSON' };
  }
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success) return { record: empty, rebuilt: 'not an alert record' };
  return { record: parsed.data as AlertRecord };
}

export function writeAlertRecord(file: string, record: AlertRecord): void {
  ensurePrivateDir(path.dirname(file));
  writePrivateFileAtomic(file, `${JSON.stringify(record)}\n`);
}

/**
 * Runs `fn` holding the record's lock. The holder delivers while it holds it, so waiting and staleness are
 * sized from the longest a run's deliveries may take (`holdMs`), not the config lock's seconds.
 */
export async function withAlertLock<T>(file: string, holdMs: number, fn: () => Promise<T>): Promise<T> {
  ensurePrivateDir(path.dirname(file));
  const waitMs = holdMs + 10_000;
  return withFileLock(file, fn, { attempts: Math.ceil(waitMs / 25), staleMs: holdMs + 30_000 });
}
