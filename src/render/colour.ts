/**
 * When text output gets ANSI colours, and the chalk instance the renderers use (chalk's own detection is
 * stubbed out of the bundle, build/chalk-no-detection.js). Renderers never detect anything themselves: the
 * caller decides and passes a boolean, so output is deterministic in tests.
 */

import { Chalk, type ChalkInstance } from 'chalk';

export interface ColourContext {
  format: 'text' | 'json' | string;
  noColorFlag: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** Of stdout. */
  isTTY: boolean;
}

/**
 * Text only. `--no-color` always wins. `FORCE_COLOR` (any value but `0`/`false`) forces colour on, as
 * Node and chalk treat it, even over `NO_COLOR`/`TERM=dumb`. `NO_COLOR` with any value, even empty, turns it
 * off. `TERM=dumb` (any case) turns it off. Otherwise: stdout is a TTY.
 */
export function shouldUseColour({ format, noColorFlag, env, isTTY }: ColourContext): boolean {
  if (format !== 'text' || noColorFlag) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '0' && force.toLowerCase() !== 'false') return true;
  if (env.NO_COLOR !== undefined) return false;
  if (env.TERM?.toLowerCase() === 'dumb') return false;
  return isTTY;
}

/** Every colour CodexBar uses is one of the 16 basic ones, so level 1 is enough and never varies. */
export function palette(colour: boolean): ChalkInstance {
  return new Chalk({ level: colour ? 1 : 0 });
}
