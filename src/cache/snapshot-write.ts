import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { readTextFileSync } from '../local/read-file-sync.js';
import { type AuthInputs, accountRecord } from '../statusline/account-record.js';
import { isAbandonedTemp, isTempName } from './abandoned-temp.js';
import { ensurePrivateDir, writePrivateFileAtomic } from './private-files.js';
import type { SnapshotFile } from './snapshot-file.js';
import { snapshotPath } from './snapshot-read.js';

/**
 * Writing the usage cache after a live fetch: the account's snapshot and the set-up's account record, 0600 in
 * 0700 directories, each replaced atomically (docs/invariants.md, "Owner-only atomic files"). Only the full
 * CLI writes, so the statusline fast path never loads this module.
 */

/** Creates the directories owner-only when needed and replaces the account's snapshot atomically. */
export function writeSnapshot(dir: string, file: SnapshotFile): void {
  ensurePrivateDir(path.dirname(dir));
  ensurePrivateDir(dir);
  writePrivateFileAtomic(snapshotPath(dir, file.account), `${JSON.stringify(file)}\n`);
  sweepTempFiles(dir, Date.now());
}

/**
 * Which source won and the fingerprints it was read with (account-record.ts says how they are used). It
 * rarely changes, so an identical record is left as it is rather than written again.
 */
export function writeAccountRecord(
  inputs: AuthInputs,
  session: Parameters<typeof accountRecord>[1],
  account: string | undefined,
): void {
  const text = `${JSON.stringify(accountRecord(inputs, session, account))}\n`;
  const current = readTextFileSync(inputs.recordPath, text.length + 1);
  if (current.kind === 'ok' && current.text === text) return;
  ensurePrivateDir(path.dirname(inputs.recordPath));
  writePrivateFileAtomic(inputs.recordPath, text);
}

/** Removes the temporary files killed writers left in the usage directory (src/cache/abandoned-temp.ts). Best effort. */
function sweepTempFiles(dir: string, nowMs: number): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {}
  for (const name of names.filter(isTempName)) {
    try {
      const file = path.join(dir, name);
      if (isAbandonedTemp(lstatSync(file), nowMs)) unlinkSync(file);
    } catch {}
  }
}
