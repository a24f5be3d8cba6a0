/**
 * `npm run bench:render`: the cost text renderer on reports no real account has but a hostile or broken
 * server could send: 10,000 distinct models, and models with 3,000-character names, in every layout (full,
 * compact, each with and without --breakdown, at a wide and a narrow terminal). Prints the wall time and this
 * process's CPU time per render, median of several, and whether the 1 s target of issue 8 was met; asserts
 * nothing. The aggregation that builds each report is timed separately, once.
 */
import { eventsPageSchema, type UsageEvent } from '../src/api/schemas/events.js';
import { createCostAggregator } from '../src/cost/aggregate.js';
import type { CostReport } from '../src/cost/types.js';
import { resolveCostWindow } from '../src/cost/window.js';
import { renderCostText } from '../src/render/cost-text.js';
import { median, ms } from './lib/measure.js';
import { printSummary, type TargetRow } from './lib/summary.js';

const NOW = new Date('2026-11-20T15:00:00Z');
const RUNS = 5;
const TARGET_MS = 1000;

interface Scenario {
  title: string;
  models: number;
  nameLength: number;
  events: number;
}

const SCENARIOS: Scenario[] = [
  { title: '10,000 distinct models', models: 10_000, nameLength: 12, events: 10_000 },
  { title: '200 models of 3,000 characters', models: 200, nameLength: 3000, events: 2_000 },
  { title: '10,000 models of 3,000 characters', models: 10_000, nameLength: 3000, events: 10_000 },
];

const LAYOUTS = [
  { name: 'full', compact: false, breakdown: false, columns: 1000 },
  { name: 'full --breakdown', compact: false, breakdown: true, columns: 1000 },
  { name: 'compact', compact: true, breakdown: false, columns: 80 },
  { name: 'compact --breakdown', compact: true, breakdown: true, columns: 80 },
  { name: 'full at 120 columns (wrapping)', compact: false, breakdown: true, columns: 120 },
] as const;

/** Events spread over 30 days, model i for every i-th event, decoded as the client decodes them. */
function eventsFor(scenario: Scenario): UsageEvent[] {
  const raw = Array.from({ length: scenario.events }, (_, i) => {
    const index = i % scenario.models;
    const name = `m${index}-`.padEnd(scenario.nameLength, 'x');
    return {
      timestamp: String(NOW.getTime() - 60_000 - i * Math.floor((29 * 86_400_000) / scenario.events)),
      model: name,
      tokenUsage: { inputTokens: 100 + index, outputTokens: 10, totalCents: 1 },
    };
  });
  return eventsPageSchema.parse({ usageEventsDisplay: raw }).usageEventsDisplay;
}

function reportFor(events: readonly UsageEvent[]): CostReport {
  const window = resolveCostWindow({ days: 30, now: NOW, timeZone: 'UTC' });
  const aggregator = createCostAggregator({ timeZone: 'UTC', pricing: null, today: NOW });
  for (const event of events) aggregator.add(event);
  return aggregator.finish(window, { generatedAt: NOW, reportedEventCount: events.length });
}

/** Wall and CPU (user + system) milliseconds of `work`. */
function measure(work: () => void): { wall: number; cpu: number } {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  work();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const rows: TargetRow[] = [];
for (const scenario of SCENARIOS) {
  const events = eventsFor(scenario);
  let report: CostReport | undefined;
  const built = measure(() => {
    report = reportFor(events);
  });
  console.log(
    `\n${scenario.title} (${scenario.events} events): aggregation ${ms(built.wall)} wall, ${ms(built.cpu)} CPU`,
  );
  for (const layout of LAYOUTS) {
    const walls: number[] = [];
    const cpus: number[] = [];
    let chars = 0;
    for (let run = 0; run < RUNS; run++) {
      const { wall, cpu } = measure(() => {
        chars = renderCostText(report!, { colour: false, isTTY: false, ...layout }).length;
      });
      walls.push(wall);
      cpus.push(cpu);
    }
    const wall = median(walls);
    const cpu = median(cpus);
    console.log(
      `  ${layout.name.padEnd(32)} ${ms(wall).padStart(10)} wall  ${ms(cpu).padStart(10)} CPU  ${chars} chars`,
    );
    rows.push({
      figure: `${scenario.title}, ${layout.name} (CPU)`,
      value: ms(cpu),
      target: `< ${TARGET_MS} ms`,
      met: cpu < TARGET_MS,
    });
  }
}
printSummary(
  `cost text rendering, median of ${RUNS} (the machine may be shared: CPU time is the figure)`,
  rows,
);
