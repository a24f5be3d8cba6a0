/**
 * Bundled list prices, USD per 1M tokens, for models seen in Cursor usage events. Used only for events
 * whose `tokenUsage.totalCents` is missing. Keys are the canonical ids produced by `priceKeyFor` in
 * pricing.ts.
 *
 * Sources: `md` = models.dev at HEAD 2026-07-02 (`providers/<p>/models/<id>.toml`); `ant` = Anthropic's
 * pricing page; `cur` = cursor.com/docs/models-and-pricing; `cur*` = Cursor doc values as quoted in
 * stored repositories. As-of dates are when those sources were read.
 */

export interface TokenRates {
  input: number;
  output: number;
  /** Absent when the provider has no separate cache-write price: such tokens bill at the input rate. */
  cacheWrite?: number;
  cacheRead: number;
}

export interface PriceRow extends TokenRates {
  key: string;
  source: string;
  asOf: string;
  /** First day (UTC, inclusive) the row applies to; absent = always. */
  validFrom?: string;
  /** Day (UTC, exclusive) from which the row no longer applies; absent = still current. */
  validUntil?: string;
  /** Rates for the whole request when its prompt (input + cache write + cache read) exceeds the threshold. */
  longContext?: TokenRates & { aboveTokens: number };
  note?: string;
}

const MD = 'models.dev @ 2026-07-02';
const MD_ANT = 'models.dev @ 2026-07-02; Anthropic pricing page';
const CUR = 'cursor.com/docs/models-and-pricing';
const CUR_QUOTED = 'Cursor docs as quoted in stored repos (DEFAULT_DOCS_PRICING, MODEL_COST_TABLE)';
const AS_OF = '2026-07-02';

/** [input, cache write (null = bill at input), cache read, output]. */
type RateColumns = readonly [number, number | null, number, number];

function row(key: string, columns: RateColumns, source: string, extra: Partial<PriceRow> = {}): PriceRow {
  const [input, cacheWrite, cacheRead, output] = columns;
  const rates: TokenRates = { input, output, cacheRead };
  if (cacheWrite !== null) rates.cacheWrite = cacheWrite;
  return { key, ...rates, source, asOf: AS_OF, ...extra };
}

// Anthropic bills prompts over 200k tokens (1M-context beta) at 2× input and 1.5× output; cache writes
// and reads keep their 1.25× / 0.1× ratio to the doubled input rate.
const SONNET_LONG = {
  longContext: { aboveTokens: 200_000, input: 6, output: 22.5, cacheWrite: 7.5, cacheRead: 0.6 },
};
const GEMINI_PRO_LONG = { longContext: { aboveTokens: 200_000, input: 2.5, output: 15, cacheRead: 0.25 } };

export const PRICE_TABLE: readonly PriceRow[] = [
  // Anthropic (Cursor writes claude-<version>-<family>; keys use the provider order).
  row('claude-sonnet-4', [3, 3.75, 0.3, 15], MD_ANT, SONNET_LONG),
  row('claude-sonnet-4-5', [3, 3.75, 0.3, 15], MD_ANT, SONNET_LONG),
  row('claude-sonnet-4-6', [3, 3.75, 0.3, 15], MD),
  row('claude-opus-4', [15, 18.75, 1.5, 75], MD_ANT),
  row('claude-opus-4-1', [15, 18.75, 1.5, 75], MD_ANT),
  row('claude-opus-4-5', [5, 6.25, 0.5, 25], MD_ANT),
  row('claude-opus-4-6', [5, 6.25, 0.5, 25], MD, { note: "Cursor's docs: no long-context multiplier" }),
  row('claude-opus-4-6-fast', [30, 37.5, 3, 150], `${MD} (experimental.modes.fast)`),
  row('claude-opus-4-7', [5, 6.25, 0.5, 25], MD),
  row('claude-haiku-4-5', [1, 1.25, 0.1, 5], MD_ANT),
  // OpenAI: no cache-write price.
  row('gpt-5', [1.25, null, 0.125, 10], `${MD}; ${CUR_QUOTED}`),
  row('gpt-5-fast', [2.5, null, 0.25, 20], CUR_QUOTED, { note: 'priority processing, 2× standard' }),
  row('gpt-5-codex', [1.25, null, 0.125, 10], MD),
  row('gpt-5.1', [1.25, null, 0.125, 10], MD),
  row('gpt-5.1-codex', [1.25, null, 0.125, 10], MD),
  row('gpt-5-mini', [0.25, null, 0.025, 2], `${MD}; ${CUR_QUOTED}`),
  row('gpt-4.1', [2, null, 0.5, 8], MD),
  row('o3', [2, null, 0.5, 8], MD),
  // Google: over 200k prompt tokens the whole request bills at the higher tier.
  row('gemini-2.5-pro', [1.25, null, 0.125, 10], `${MD} ([[cost.tiers]] size=200000)`, GEMINI_PRO_LONG),
  row('gemini-2.5-flash', [0.3, null, 0.03, 2.5], `${MD}; ${CUR_QUOTED}`),
  // xAI: removed from models.dev on 2026-05-16; prices from its TOML before removal.
  row('grok-code-fast-1', [0.2, null, 0.02, 1.5], 'models.dev xai TOML at 89fbb6bb6^', {
    asOf: '2026-05-16',
  }),
  // Cursor's own models.
  row('cursor-auto', [1.25, 1.25, 0.25, 6], CUR, { note: 'auto / default' }),
  row('composer-1', [1.25, null, 0.125, 10], CUR_QUOTED),
  row('composer-1.5', [3.5, null, 0.35, 17.5], CUR_QUOTED),
  row('composer-2', [0.5, null, 0.2, 2.5], CUR_QUOTED),
  row('composer-2.5', [0.5, null, 0.2, 2.5], CUR_QUOTED),
  // No composer-*-fast rows: the sources disagree, so those stay unpriced.
];
