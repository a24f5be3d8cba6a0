import { describe, expect, it } from 'vitest';
import { type ColourContext, shouldUseColour } from '../../src/render/colour.js';

const base: ColourContext = { format: 'text', noColorFlag: false, env: {}, isTTY: true };

describe('shouldUseColour', () => {
  it.each<[string, Partial<ColourContext>, boolean]>([
    ['text on a TTY', {}, true],
    ['text to a pipe', { isTTY: false }, false],
    ['JSON output, even on a TTY', { format: 'json' }, false],
    ['--no-color', { noColorFlag: true }, false],
    ['NO_COLOR=1', { env: { NO_COLOR: '1' } }, false],
    ['NO_COLOR=0 (any non-empty value)', { env: { NO_COLOR: '0' } }, false],
    ['NO_COLOR set but empty still turns colour off (any value)', { env: { NO_COLOR: '' } }, false],
    ['TERM=dumb', { env: { TERM: 'dumb' } }, false],
    ['TERM=DUMB (case-insensitive)', { env: { TERM: 'DUMB' } }, false],
    ['TERM=xterm-256color', { env: { TERM: 'xterm-256color' } }, true],
    ['FORCE_COLOR=1 to a pipe', { isTTY: false, env: { FORCE_COLOR: '1' } }, true],
    ['FORCE_COLOR empty to a pipe', { isTTY: false, env: { FORCE_COLOR: '' } }, true],
    ['FORCE_COLOR=0 on a TTY', { env: { FORCE_COLOR: '0' } }, true],
    ['FORCE_COLOR=0 to a pipe', { isTTY: false, env: { FORCE_COLOR: '0' } }, false],
    ['FORCE_COLOR=false to a pipe', { isTTY: false, env: { FORCE_COLOR: 'false' } }, false],
    ['FORCE_COLOR=1 with NO_COLOR=1', { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }, true],
    ['FORCE_COLOR=1 with TERM=dumb', { env: { FORCE_COLOR: '1', TERM: 'dumb' } }, true],
    ['FORCE_COLOR=1 with --no-color', { noColorFlag: true, env: { FORCE_COLOR: '1' } }, false],
    ['FORCE_COLOR=1 with JSON output', { format: 'json', env: { FORCE_COLOR: '1' } }, false],
  ])('%s → %s', (_case, overrides, expected) => {
    expect(shouldUseColour({ ...base, ...overrides })).toBe(expected);
  });
});
