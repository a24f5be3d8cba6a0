/**
 * Small executables that stand in for the OS helpers codexbar runs to get a browser's cookie key:
 * `secret-tool`, `kwallet-query` (Linux), `security` (macOS) and `powershell.exe` (Windows). They are fakes of
 * external programs, put first on PATH by a test; every call is logged (its argv and stdin) so tests
 * can check what was asked and that no secret ever travelled in argv.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FAKE_DPAPI_USER_KEY } from '../../fixtures/builders/browser-crypto.js';

export interface FakeToolConfig {
  /** secret-tool: `application` attribute → password. */
  secretTool?: Record<string, string>;
  /** kwallet-query: `<folder>/<entry>` → password. */
  kwallet?: Record<string, string>;
  /** security: service → password; `null` answers as a denied prompt (exit 51). */
  keychain?: Record<string, string | null>;
  /** powershell.exe: unwraps blobs made by fakeDpapiProtect with this key (default FAKE_DPAPI_USER_KEY). */
  dpapiUserKey?: string;
}

export interface FakeToolCall {
  tool: string;
  argv: string[];
  stdin: string;
}

export interface FakeTools {
  /** Put this first on PATH. */
  binDir: string;
  calls(): FakeToolCall[];
  /** A PATH with only the fakes: a real helper installed on this machine can never answer instead. */
  path: string;
  cleanup(): void;
}

/**
 * Each call is one record in `calls.log`: the tool and each argument followed by US (\x1f), then GS (\x1d),
 * the stdin, and RS (\x1e). No argument or stdin of these tools holds those controls.
 */
const LOG = 'calls.log';

/** A word for sh, quoted: the fakes' answers are baked into their scripts. */
const sh = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * A `case` on `subject` with one arm per answer: a password is printed (with `newline`) and the tool exits 0,
 * a null answer exits `deniedCode`; anything else falls through.
 */
function answering(
  subject: string,
  answers: Record<string, string | null> = {},
  { newline = true, deniedCode = 1 } = {},
): string {
  const print = newline ? `'%s\\n'` : `'%s'`;
  const arms = Object.entries(answers).map(
    ([key, password]) =>
      `  ${sh(key)}) ${password === null ? `exit ${deniedCode}` : `printf ${print} ${sh(password)}; exit 0`};;`,
  );
  return `case ${subject} in\n${arms.join('\n')}\nesac`;
}

/**
 * The Unix helpers are sh scripts that use only its builtins (the PATH they run with holds nothing else):
 * a Node start for each of them cost ~0.1 s of CPU, and a test of the cookie key makes several calls.
 */
function shellTool(tool: string, log: string, body: string): string {
  return `#!/bin/sh
stdin=''
while IFS= read -r line; do stdin="$stdin$line
"; done
stdin="$stdin$line"
printf '%s\\037' ${sh(tool)} "$@" >> ${sh(log)}
printf '\\035%s\\036' "$stdin" >> ${sh(log)}
${body}
`;
}

/** The value after each of `flags` in \`$name\` (the last one given; empty without one). */
const valuesAfter = (flags: Record<string, string>) => `${Object.values(flags)
  .map((name) => `${name}=''`)
  .join(' ')} prev=''
for arg in "$@"; do
  case "$prev" in
${Object.entries(flags)
  .map(([flag, name]) => `    ${flag}) ${name}=$arg;;`)
  .join('\n')}
  esac
  prev=$arg
done`;

function secretTool(config: FakeToolConfig, log: string): string {
  const lookup = answering('"$3"', config.secretTool, { newline: false });
  return shellTool('secret-tool', log, `[ "$1" = lookup ] && [ "$2" = application ] && ${lookup}\nexit 1`);
}

function kwalletQuery(config: FakeToolConfig, log: string): string {
  const read = valuesAfter({ '--folder': 'folder', '--read-password': 'entry' });
  return shellTool('kwallet-query', log, `${read}\n${answering('"$folder/$entry"', config.kwallet)}\nexit 1`);
}

function security(config: FakeToolConfig, log: string): string {
  const read = valuesAfter({ '-s': 'service' });
  const find = answering('"$service"', config.keychain, { deniedCode: 51 });
  return shellTool('security', log, `${read}\n${find}\nexit 44`);
}

/** powershell.exe unwraps with AES-GCM, so it stays a Node script. */
function powershell(config: FakeToolConfig, log: string): string {
  const key = config.dpapiUserKey ?? FAKE_DPAPI_USER_KEY.toString('hex');
  return `#!${process.execPath}
const fs = require('node:fs');
const crypto = require('node:crypto');
const stdin = fs.readFileSync(0, 'utf8');
const record = ['powershell.exe', ...process.argv.slice(2)].map((field) => field + '\\x1f').join('');
fs.appendFileSync(${JSON.stringify(log)}, record + '\\x1d' + stdin + '\\x1e');
try {
  const blob = Buffer.from(stdin.trim(), 'base64');
  const key = Buffer.from(${JSON.stringify(key)}, 'hex');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12));
  decipher.setAuthTag(blob.subarray(blob.length - 16));
  const plain = Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]);
  process.stdout.write(plain.toString('base64'));
} catch {
  process.stderr.write('Exception calling "Unprotect": The data is invalid.');
  process.exit(1);
}
`;
}

const TOOLS = {
  'secret-tool': secretTool,
  'kwallet-query': kwalletQuery,
  security,
  'powershell.exe': powershell,
} as const;

/** `parent`: where the bin dir goes (not a TMPDIR whose emptiness a test checks). */
export function installFakeTools(config: FakeToolConfig, parent: string = os.tmpdir()): FakeTools {
  const binDir = fs.mkdtempSync(path.join(parent, 'codexbar-fake-tools-'));
  const log = path.join(binDir, LOG);
  for (const [tool, script] of Object.entries(TOOLS)) {
    // Absolute interpreter paths, so the fakes run with a PATH that holds nothing else.
    fs.writeFileSync(path.join(binDir, tool), script(config, log), { mode: 0o755 });
  }
  return {
    binDir,
    path: binDir,
    calls() {
      if (!fs.existsSync(log)) return [];
      return fs
        .readFileSync(log, 'utf8')
        .split('\x1e')
        .filter((record) => record !== '')
        .map((record) => {
          const [head = '', stdin = ''] = record.split('\x1d');
          const [tool = '', ...argv] = head.split('\x1f').slice(0, -1);
          return { tool, argv, stdin };
        });
    },
    cleanup: () => fs.rmSync(binDir, { recursive: true, force: true }),
  };
}
