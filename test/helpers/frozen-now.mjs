// Preloaded through NODE_OPTIONS by test/helpers/cost-cli.ts: unlike fixed-now.mjs the clock does not
// advance, so two runs of the BUILT CLI send the same window bounds and print the same `updatedAt`
// (the sequential-vs-concurrent comparisons need byte-identical stdout). Timers are not affected.
const frozen = Date.parse(process.env.FROZEN_NOW ?? '');
if (!Number.isNaN(frozen)) {
  const RealDate = Date;
  globalThis.Date = class FrozenDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(frozen);
      else super(...args);
    }
    static now() {
      return frozen;
    }
  };
}
