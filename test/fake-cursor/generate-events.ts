import type { UsageEventJson } from './types.js';

export interface GenerateEventsOptions {
  count: number;
  start: Date;
  end: Date;
  seed: number;
  /** Model names to draw from; default a realistic Pro mix (Auto, Sonnet, GPT-5, Composer, …). */
  models?: string[];
  /** Full kind names (`USAGE_EVENT_KIND_…`) to draw from; default mostly included-in-Pro. */
  kinds?: string[];
  /** Every Nth event (1-based) omits `tokenUsage.totalCents`, like a request run on a credit grant. */
  withoutTotalCentsEvery?: number;
  /** Every Nth event (1-based) omits `chargedCents`. */
  withoutChargedCentsEvery?: number;
  /** `owningUser` on every event; default a numeric id derived from the seed. */
  owningUser?: string;
}

const KIND = {
  includedInPro: 'USAGE_EVENT_KIND_INCLUDED_IN_PRO',
  usageBased: 'USAGE_EVENT_KIND_USAGE_BASED',
  errored: 'USAGE_EVENT_KIND_ERRORED_NOT_CHARGED',
  userApiKey: 'USAGE_EVENT_KIND_USER_API_KEY',
} as const;

const DEFAULT_KIND_WEIGHTS: Record<string, number> = {
  [KIND.includedInPro]: 72,
  [KIND.usageBased]: 18,
  [KIND.errored]: 5,
  [KIND.userApiKey]: 5,
};

const DEFAULT_MODEL_WEIGHTS: Record<string, number> = {
  default: 38,
  'claude-4.5-sonnet-thinking': 22,
  'gpt-5': 13,
  'composer-1': 12,
  'gpt-5-codex': 8,
  'claude-4.5-opus-high-thinking': 7,
};

/** USD per 1M tokens: input, cache write, cache read, output. */
const LIST_PRICES: Record<string, readonly [number, number, number, number]> = {
  default: [1.25, 1.25, 0.25, 6],
  'claude-4.5-sonnet-thinking': [3, 3.75, 0.3, 15],
  'claude-4.5-sonnet': [3, 3.75, 0.3, 15],
  'claude-4.5-opus-high-thinking': [5, 6.25, 0.5, 25],
  'gpt-5': [1.25, 1.25, 0.125, 10],
  'gpt-5-codex': [1.25, 1.25, 0.125, 10],
  'composer-1': [1.25, 1.25, 0.125, 10],
};
const FALLBACK_PRICE = [1.25, 1.25, 0.125, 10] as const;

/** The Cursor Token Rate, $0.25 per 1M tokens, on non-Auto requests. */
const TOKEN_FEE_CENTS_PER_TOKEN = 0.25 / 10_000;

const HOUR_MS = 3_600_000;

/** mulberry32: tiny, fast and good enough for fixtures; the same seed gives the same stream. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function weightedPicker(names: string[], weights: Record<string, number>, random: () => number) {
  const cumulative: number[] = [];
  let total = 0;
  for (const name of names) {
    total += weights[name] ?? 1;
    cumulative.push(total);
  }
  return (): string => {
    const target = random() * total;
    for (let i = 0; i < names.length; i++) if (target < cumulative[i]!) return names[i]!;
    return names[names.length - 1]!;
  };
}

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

/**
 * Timestamps spread over [start, end], thinner at night (UTC) so the daily table looks lived-in,
 * returned newest first like the dashboard.
 */
function timestamps(count: number, start: number, end: number, random: () => number): Float64Array {
  const out = new Float64Array(count);
  const span = Math.max(0, end - start);
  for (let i = 0; i < count; ) {
    const t = start + Math.floor(random() * (span + 1));
    const hour = Math.floor(t / HOUR_MS) % 24;
    const keep = hour >= 8 && hour < 23 ? 1 : 0.2;
    if (random() < keep) out[i++] = t;
  }
  return out.sort().reverse();
}

/**
 * Deterministic, realistic usage events: ms-string timestamps, zero token counters
 * omitted as protobuf JSON does, fractional cents, a token fee on non-Auto models.
 */
export function generateEvents(options: GenerateEventsOptions): UsageEventJson[] {
  const random = seededRandom(options.seed);
  const pickModel = weightedPicker(
    options.models ?? Object.keys(DEFAULT_MODEL_WEIGHTS),
    DEFAULT_MODEL_WEIGHTS,
    random,
  );
  const pickKind = weightedPicker(
    options.kinds ?? Object.keys(DEFAULT_KIND_WEIGHTS),
    DEFAULT_KIND_WEIGHTS,
    random,
  );
  const owningUser = options.owningUser ?? String(100_000 + (options.seed % 900_000));
  const times = timestamps(options.count, options.start.getTime(), options.end.getTime(), random);

  const events: UsageEventJson[] = new Array(options.count);
  for (let i = 0; i < options.count; i++) {
    const model = pickModel();
    const kind = pickKind();
    const errored = kind === KIND.errored;
    const scale = errored ? 0.1 : 1;
    const input = Math.floor((200 + random() ** 2 * 14_000) * scale);
    const output = errored && random() < 0.6 ? 0 : Math.floor((20 + random() ** 1.5 * 3_000) * scale);
    const cacheWrite = random() < 0.55 ? 0 : Math.floor(random() * 25_000 * scale);
    const cacheRead = random() < 0.15 ? 0 : Math.floor(random() * 160_000 * scale);
    const [pIn, pWrite, pRead, pOut] = LIST_PRICES[model] ?? FALLBACK_PRICE;
    const totalCents = round4(
      (input * pIn + cacheWrite * pWrite + cacheRead * pRead + output * pOut) / 10_000,
    );
    const tokens = input + output + cacheWrite + cacheRead;
    const fee = model === 'default' || errored ? 0 : round4(tokens * TOKEN_FEE_CENTS_PER_TOKEN);
    const chargedCents = errored ? 0 : kind === KIND.userApiKey ? fee : round4(totalCents + fee);
    const usageBased = kind === KIND.usageBased;

    const tokenUsage: NonNullable<UsageEventJson['tokenUsage']> = { inputTokens: input };
    if (output > 0) tokenUsage.outputTokens = output;
    if (cacheWrite > 0) tokenUsage.cacheWriteTokens = cacheWrite;
    if (cacheRead > 0) tokenUsage.cacheReadTokens = cacheRead;
    const n = i + 1;
    if (!(options.withoutTotalCentsEvery && n % options.withoutTotalCentsEvery === 0)) {
      tokenUsage.totalCents = totalCents;
    }

    const event: UsageEventJson = { timestamp: String(times[i]), model, kind };
    if (model.includes('opus') && random() < 0.5) event.maxMode = true;
    if (chargedCents > 0 && kind !== KIND.userApiKey)
      event.requestsCosts = Math.round(chargedCents / 0.4) / 10;
    event.usageBasedCosts = usageBased ? `$${(chargedCents / 100).toFixed(2)}` : '-';
    event.isTokenBasedCall = true;
    event.tokenUsage = tokenUsage;
    if (fee > 0) event.cursorTokenFee = fee;
    if (!(options.withoutChargedCentsEvery && n % options.withoutChargedCentsEvery === 0)) {
      event.chargedCents = chargedCents;
    }
    if (usageBased) event.isChargeable = true;
    if (random() < 0.03) event.isHeadless = true;
    event.owningUser = owningUser;
    event.owningTeam = '0';
    events[i] = event;
  }
  return events;
}
