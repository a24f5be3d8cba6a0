import { describe, expect, it } from 'vitest';
import { displayName, safeText } from '../../src/render/safe-text.js';

describe('safe text', () => {
  it('shows C0, DEL and C1 controls as \\xNN and leaves other text alone', () => {
    expect(safeText('a\u001b[31mb\u0007\nc\u007f\u009bé…')).toBe('a\\x1b[31mb\\x07\\x0ac\\x7f\\x9bé…');
  });

  it('escapes U+0000–U+001F, DEL and U+0080–U+009F, and nothing just past them (space, `~`, U+00A0)', () => {
    expect(safeText('\u0000\u001f \u007e\u007f\u0080\u009f\u00a0')).toBe('\\x00\\x1f ~\\x7f\\x80\\x9f\u00a0');
  });

  it.each([
    ['short', 10, 'short'],
    ['exactly-10', 10, 'exactly-10'],
    ['eleven-char', 10, 'eleven-ch…'],
    ['x'.repeat(3000), 10, `${'x'.repeat(9)}…`],
    // An escape that pushes a short name over the limit is cut like any long name.
    ['abcdefg\u001b', 10, 'abcdefg\\x…'],
    ['ab\u001bcdefghijklm', 10, 'ab\\x1bcde…'],
  ])('displayName(%j, %i) is %j', (name, max, shown) => {
    expect(displayName(name, max)).toBe(shown);
    // The same as escaping the whole name first, then cutting.
    const whole = safeText(name);
    expect(shown).toBe(whole.length <= max ? whole : `${whole.slice(0, max - 1)}…`);
  });
});
