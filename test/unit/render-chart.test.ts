import { describe, expect, it } from 'vitest';
import { barFor, renderDailyChart } from '../../src/render/chart.js';
import { sampleCostReport } from '../helpers/cost-sample.js';

describe('daily spend chart', () => {
  it.each([
    [10, 10, 4, '████'],
    [5, 10, 4, '██'],
    [1, 10, 4, '▍'], // 0.4 cells = 3.2 eighths → 3
    [0.001, 10, 4, '▏'], // any spend shows at least one eighth
    [0, 10, 4, ''],
  ])('a %s day against a %s max on %s cells draws "%s"', (cost, max, width, expected) => {
    expect(barFor(cost, max, width)).toBe(expected);
  });

  it('draws nothing when no day has a known cost above zero', () => {
    const days = sampleCostReport().daily.map((day) => ({ ...day, costUSD: null }));
    expect(renderDailyChart(days, { colour: false, columns: 80 })).toBeUndefined();
  });

  it('shows an em dash and an empty bar for a day whose cost is unknown', () => {
    const days = sampleCostReport().daily;
    days[0]!.costUSD = null;
    const lines = renderDailyChart(days, { colour: false, columns: 30 })!.split('\n');
    expect(lines[1]).toBe(`2026-07-19  ${' '.repeat(10)}       —`);
    expect(lines[2]).toBe(`2026-07-20  ${'█'.repeat(10)}  $10.50`);
  });
});
