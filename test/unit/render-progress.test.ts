import { describe, expect, it } from 'vitest';
import { createProgressLine, eventsPageMessage } from '../../src/render/progress.js';

function capture() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (chunk: string) => chunks.push(chunk) } };
}

const CLEAR = '\r\u001b[2K';

describe('progress line on stderr', () => {
  it('writes nothing at all when disabled (not a TTY, or JSON output)', () => {
    const { chunks, stream } = capture();
    const progress = createProgressLine({ enabled: false, stream });
    progress.update(eventsPageMessage(1, 150));
    progress.finish();
    expect(chunks).toEqual([]);
  });

  it('rewrites the line in place and clears it when finished', () => {
    const { chunks, stream } = capture();
    const progress = createProgressLine({ enabled: true, stream });
    progress.update(eventsPageMessage(1, 150));
    progress.update(eventsPageMessage(1, 150));
    progress.update(eventsPageMessage(12, 150));
    progress.finish();
    progress.finish();
    expect(chunks).toEqual([
      `${CLEAR}Fetching usage events… page 1/150`,
      `${CLEAR}Fetching usage events… page 12/150`,
      CLEAR,
    ]);
  });

  it('clears nothing when nothing was drawn', () => {
    const { chunks, stream } = capture();
    createProgressLine({ enabled: true, stream }).finish();
    expect(chunks).toEqual([]);
  });

  it('leaves the total out while it is unknown', () => {
    expect(eventsPageMessage(3)).toBe('Fetching usage events… page 3');
  });
});
