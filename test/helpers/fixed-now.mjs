// Preloaded with `node --import` by test/helpers/cli.ts when a test pins the clock: the BUILT CLI then sees
// `FAKE_NOW` as the current time (and time still advances from there), so golden outputs are stable.
const fixed = Date.parse(process.env.FAKE_NOW ?? '');
if (!Number.isNaN(fixed)) {
  const RealDate = Date;
  const offset = fixed - RealDate.now();
  globalThis.Date = class FakeDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + offset);
      else super(...args);
    }
    static now() {
      return RealDate.now() + offset;
    }
  };
}
