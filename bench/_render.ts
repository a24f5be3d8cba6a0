import { eventsPageSchema } from '../src/api/schemas/events.js';
import { createCostAggregator } from '../src/cost/aggregate.js';
import { renderCostText } from '../src/render/cost-text.js';

const n = Number(process.argv[2] ?? 10000);
const len = Number(process.argv[3] ?? 20);
const raw = Array.from({ length: n }, (_, i) => ({
  timestamp: String(Date.parse('2026-11-10T00:00:00Z') + i * 1000),
  model: `m${i}-${'x'.repeat(len)}`,
  tokenUsage: { inputTokens: 10, totalCents: 1 },
}));
const events = eventsPageSchema.parse({ usageEventsDisplay: raw }).usageEventsDisplay;
const agg = createCostAggregator({ timeZone: 'UTC', pricing: null, today: new Date('2026-11-20T00:00:00Z') });
for (const e of events) agg.add(e);
const report = agg.finish(
  {
    start: new Date('2026-11-01'),
    end: new Date('2026-11-20'),
    timeZone: 'UTC',
    historyDays: 20,
    label: 'x',
  },
  { generatedAt: new Date(), reportedEventCount: n },
);
for (const [compact, breakdown, columns] of [
  [false, false, 1000],
  [false, true, 1000],
  [true, false, 80],
  [true, true, 80],
] as const) {
  const t = performance.now();
  const text = renderCostText(report, { colour: false, columns, compact, breakdown, isTTY: false });
  console.log({ compact, breakdown, columns, ms: Math.round(performance.now() - t), chars: text.length });
}
