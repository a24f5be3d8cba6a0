// Preloaded with `node --require` when a test pins the clock of the BUILT CLI. `FAKE_NOW` is the time the CLI
// sees: from there it keeps advancing, or with `FAKE_NOW_FROZEN=1` it stands still, so two runs send the
// same window bounds and print byte-identical output (`updatedAt` included). Timers are not affected.
const fixed = Date.parse(process.env.FAKE_NOW ?? '');
if (!Number.isNaN(fixed)) {
  const RealDate = Date;
  const frozen = process.env.FAKE_NOW_FROZEN === '1';
  const offset = fixed - RealDate.now();
  const now = () => (frozen ? fixed : RealDate.now() + offset);
  globalThis.Date = class FakeDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  };
}
