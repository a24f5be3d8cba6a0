import { InvalidArgumentError, Option } from 'commander';
import { parseDurationMs } from '../lib/duration.js';

/**
 * Value parsers for commander options. Each throws commander's InvalidArgumentError with one complete
 * sentence that names the flag and the accepted values; `src/cli.ts` prints it as it prints every other
 * argument error.
 */

/** `--flag <n>`: a whole number from `min` to `max`; anything else is refused, never clamped. */
export function wholeNumber(flag: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const number = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!(number >= min && number <= max)) {
      throw new InvalidArgumentError(
        `${flag} must be a whole number from ${min} to ${max} (got '${value}').`,
      );
    }
    return number;
  };
}

/** `--flag <n>`: a number from `min` to `max`, fractions allowed (a percentage such as 2.5). */
export function numberInRange(flag: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const number = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!(number >= min && number <= max)) {
      throw new InvalidArgumentError(`${flag} must be a number from ${min} to ${max} (got '${value}').`);
    }
    return number;
  };
}

/**
 * A fixed value set, matched case-insensitively as CodexBar does. `choices()` keeps the list on the option
 * for `--help`; the parser then normalises the value before checking it.
 */
export function choiceOption(
  flags: string,
  description: string,
  values: readonly string[],
  refusal: (value: string) => string = (value) =>
    `${longFlag(flags)} must be one of ${values.join(', ')} (got '${value}').`,
): Option {
  const option = new Option(flags, description).choices(values);
  return option.argParser((value: string) => {
    const normalised = value.trim().toLowerCase();
    if (!values.includes(normalised)) throw new InvalidArgumentError(refusal(value));
    return normalised;
  });
}

function longFlag(flags: string): string {
  return /--[\w-]+/.exec(flags)?.[0] ?? flags;
}

/**
 * `--flag <duration>`: `45s`, `5m`, `1h`, or plain seconds (fractions allowed), as milliseconds, from `min`
 * to `max` seconds.
 */
export function duration(flag: string, limits: { min: number; max: number }): (value: string) => number {
  return (value) => {
    const ms = parseDurationMs(value) ?? Number.NaN;
    if (!(ms >= limits.min * 1000 && ms <= limits.max * 1000)) {
      throw new InvalidArgumentError(
        `${flag} must be a duration from ${limits.min} s to ${limits.max} s, as seconds or with s, m or h (e.g. 45s, 5m, 1h) (got '${value}').`,
      );
    }
    return ms;
  };
}
