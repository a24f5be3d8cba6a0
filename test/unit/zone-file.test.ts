/**
 * docs/invariants.md, "Regular files only, never a blocking read": the zone file the C library would open
 * for TZ, found by glibc's rules, is judged without blocking (a FIFO is opened O_NONBLOCK, and never read).
 * The process end to end, a FIFO TZ and a FIFO under TZDIR, is in integration/process-fifos.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { zoneFileBlocks } from '../../src/local/zone-file.js';
import { makeFifo } from '../helpers/fifo.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codexbar-zone-'));
const fifo = path.join(dir, 'fifo');
const regular = path.join(dir, 'regular');
makeFifo(fifo);
fs.writeFileSync(regular, 'TZif');
fs.mkdirSync(path.join(dir, 'zones', 'Asia'), { recursive: true });
makeFifo(path.join(dir, 'zones', 'Asia', 'Tokyo'));
fs.writeFileSync(path.join(dir, 'zones', 'UTC'), 'TZif');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the zone file TZ names', () => {
  it.each([
    ['a path', fifo],
    ['a path after POSIX’s colon', `:${fifo}`],
    ['a name that climbs out of the zone directory', path.relative('/usr/share/zoneinfo', fifo)],
  ])('a FIFO named by %s blocks', (_, tz) => {
    expect(zoneFileBlocks({ TZ: tz })).toBe(true);
  });

  it.each([
    ['a regular file', regular],
    ['a regular file after the colon', `:${regular}`],
    ['nothing there', path.join(dir, 'missing')],
  ])('%s does not', (_, tz) => {
    expect(zoneFileBlocks({ TZ: tz })).toBe(false);
  });

  it('a name is looked up under TZDIR when set: a FIFO there blocks, a regular file does not', () => {
    const zones = path.join(dir, 'zones');
    expect(zoneFileBlocks({ TZ: 'Asia/Tokyo', TZDIR: zones })).toBe(true);
    expect(zoneFileBlocks({ TZ: 'UTC', TZDIR: zones })).toBe(false);
  });

  it('no TZ is the system’s own /etc/localtime: nothing to judge', () => {
    expect(zoneFileBlocks({})).toBe(false);
  });
});
