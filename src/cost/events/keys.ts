/**
 * The keys the byte decoder of events pages knows (src/cost/events/byte-decoder.ts): the event and token
 * fields the schema reads (src/api/schemas/events.ts), the envelope's, and tables to recognise them by.
 */

/**
 * Event fields the schema reads, in the order `decodeUsageEvent` lists them; every other key is skipped. The
 * numeric ones are read by the schema's lenient number rules, under which a string of up to 15 digits and
 * the number it spells decode alike.
 */
export const EVENT_FIELDS = [
  'timestamp',
  'model',
  'kind',
  'requestsCosts',
  'usageBasedCosts',
  'isTokenBasedCall',
  'owningUser',
  'owningTeam',
  'cursorTokenFee',
  'isChargeable',
  'isHeadless',
  'chargedCents',
  'tokenUsage',
] as const;
const TOKEN_FIELDS = [
  'inputTokens',
  'outputTokens',
  'cacheWriteTokens',
  'cacheReadTokens',
  'totalCents',
] as const;
// Indexes into EVENT_FIELDS and TOKEN_FIELDS; tokenUsage is the last event field.
export const TIMESTAMP = 0;
export const MODEL = 1;
export const KIND = 2;
export const REQUESTS_COSTS = 3;
export const USAGE_BASED_COSTS = 4;
export const IS_TOKEN_BASED_CALL = 5;
export const OWNING_USER = 6;
export const OWNING_TEAM = 7;
export const CURSOR_TOKEN_FEE = 8;
export const IS_CHARGEABLE = 9;
export const IS_HEADLESS = 10;
export const CHARGED_CENTS = 11;
export const TOKEN_USAGE = 12;
export const INPUT_TOKENS = 0;
export const OUTPUT_TOKENS = 1;
export const CACHE_WRITE_TOKENS = 2;
export const CACHE_READ_TOKENS = 3;

export interface Field {
  /** Index into the field list. */
  index: number;
  bytes: Uint8Array;
  /** The key and its closing quote as little-endian 32-bit words, then the bytes left over. */
  words: Int32Array;
  tail: Uint8Array;
}

/** Known keys by their first character, so most keys are recognised without scanning them twice. */
export type KeyTable = Field[][];

function keyTable(names: readonly string[]): KeyTable {
  const table: KeyTable = Array.from({ length: 128 }, () => []);
  names.forEach((name, index) => {
    const quoted = Buffer.from(`${name}"`, 'latin1');
    const whole = quoted.length - (quoted.length % 4);
    table[name.charCodeAt(0)]!.push({
      index,
      bytes: Buffer.from(name, 'latin1'),
      words: Int32Array.from({ length: whole / 4 }, (_, w) => quoted.readInt32LE(w * 4)),
      tail: quoted.subarray(whole),
    });
  });
  return table;
}

export const EVENT_KEYS = keyTable(EVENT_FIELDS);
export const TOKEN_KEYS = keyTable(TOKEN_FIELDS);
export const ENVELOPE_FIELDS = ['totalUsageEventsCount', 'usageEventsDisplay'] as const;
export const ENVELOPE_KEYS = keyTable(ENVELOPE_FIELDS);
