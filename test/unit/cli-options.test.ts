import { describe, expect, it } from 'vitest';
import { effectiveArgv } from '../../src/cli.js';
import { argvWantsJson, parseSharedOptions } from '../../src/commands/options.js';
import { ArgumentError } from '../../src/errors.js';

const raw = (extra: Record<string, unknown> = {}) => ({ provider: 'cursor', color: true, ...extra });

describe('effectiveArgv (docs/behaviour.md §2.1)', () => {
  it.each([
    [[], ['usage']],
    [['--json'], ['usage', '--json']],
    [['-v'], ['usage', '-v']],
    [
      ['cost', '--days', '7'],
      ['cost', '--days', '7'],
    ],
    [
      ['usage', '--json'],
      ['usage', '--json'],
    ],
  ])('%j runs as %j', (argv, expected) => {
    expect(effectiveArgv(argv)).toEqual(expected);
  });
});

describe('argvWantsJson: early errors become JSON rows only when JSON was asked for', () => {
  it.each([
    [['--json'], true],
    [['--json-only'], true],
    [['--format', 'json'], true],
    [['--format=JSON'], true],
    [['--json', '--format', 'text'], false],
    [['--format', 'text', '--json'], false],
    [['--bogus'], false],
  ])('%j → %s', (argv, expected) => {
    expect(argvWantsJson(argv)).toBe(expected);
  });
});

describe('parseSharedOptions', () => {
  it.each([
    ['cursor', true],
    ['all', true],
    ['Both', true],
    ['codex', false],
  ])('--provider %s accepted: %s', (provider, ok) => {
    const parse = () => parseSharedOptions(raw({ provider }));
    if (ok) expect(parse).not.toThrow();
    else expect(parse).toThrow("Error: unknown provider 'codex' (supported: cursor)");
  });

  it.each([
    [{}, 'auto', undefined],
    [{ source: 'cli' }, 'auto', undefined],
    [{ source: 'WEB' }, 'web', undefined],
    [{ web: true, source: 'auto' }, 'web', undefined],
    [{ source: 'api' }, 'auto', 'api'],
    [{ source: 'oauth' }, 'auto', 'oauth'],
  ])('source options %j → mode %s, unsupported %s', (extra, mode, unsupported) => {
    const options = parseSharedOptions(raw(extra));
    expect(options.sourceMode).toBe(mode);
    expect(options.unsupportedSource).toBe(unsupported);
  });

  it('an error row reports the source as given: --source cli stays "cli" although it runs as auto', () => {
    expect(parseSharedOptions(raw({ source: 'cli' })).sourceLabel).toBe('cli');
    expect(parseSharedOptions(raw({})).sourceLabel).toBe('auto');
  });

  it('an unknown --source is an argument error with the accepted values', () => {
    expect(() => parseSharedOptions(raw({ source: 'browser' }))).toThrow(
      new ArgumentError('Error: --source must be auto|web|cli|oauth|api.'),
    );
  });

  it.each([
    [{}, 'text'],
    [{ json: true }, 'json'],
    [{ jsonOnly: true }, 'json'],
    [{ json: true, format: 'text' }, 'text'],
    [{ format: 'JSON' }, 'json'],
  ])('format options %j → %s', (extra, format) => {
    expect(parseSharedOptions(raw(extra)).format).toBe(format);
  });

  it('an unknown --format is an argument error', () => {
    expect(() => parseSharedOptions(raw({ format: 'toon' }))).toThrow(/--format must be text or json/);
  });

  it.each([
    [{ verbose: true }, true],
    [{ logLevel: 'debug' }, true],
    [{ logLevel: 'error' }, false],
    [{}, false],
  ])('verbosity %j → %s', (extra, verbose) => {
    expect(parseSharedOptions(raw(extra)).verbose).toBe(verbose);
  });
});
