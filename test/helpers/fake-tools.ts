/**
 * Small executables that stand in for the OS helpers codexbar runs to get a browser's cookie key:
 * `secret-tool`, `kwallet-query` (Linux), `security` (macOS) and `powershell.exe` (Windows). They are fakes of
 * external programs, put first on PATH by a test; every call is logged (argv and the size of stdin) so tests
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

const SCRIPT = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const tool = path.basename(process.argv[1]);
const argv = process.argv.slice(2);
const dir = path.dirname(process.argv[1]);
const config = JSON.parse(fs.readFileSync(path.join(dir, 'fake-tools.json'), 'utf8'));
const stdin = fs.readFileSync(0, 'utf8');
fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify({ tool, argv, stdin }) + '\n');
const after = (flag) => argv[argv.indexOf(flag) + 1];
if (tool === 'secret-tool') {
  const password = argv[0] === 'lookup' && argv[1] === 'application' ? (config.secretTool || {})[argv[2]] : undefined;
  if (password === undefined) process.exit(1);
  process.stdout.write(password);
} else if (tool === 'kwallet-query') {
  const password = (config.kwallet || {})[after('--folder') + '/' + after('--read-password')];
  if (password === undefined) process.exit(1);
  process.stdout.write(password + '\n');
} else if (tool === 'security') {
  const entries = config.keychain || {};
  const service = after('-s');
  if (!(service in entries)) process.exit(44);
  if (entries[service] === null) process.exit(51);
  process.stdout.write(entries[service] + '\n');
} else if (tool === 'powershell.exe') {
  try {
    const blob = Buffer.from(stdin.trim(), 'base64');
    const key = Buffer.from(config.dpapiUserKey, 'hex');
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12));
    decipher.setAuthTag(blob.subarray(blob.length - 16));
    const plain = Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]);
    process.stdout.write(plain.toString('base64'));
  } catch {
    process.stderr.write('Exception calling "Unprotect": The data is invalid.');
    process.exit(1);
  }
}
`;

const TOOLS = ['secret-tool', 'kwallet-query', 'security', 'powershell.exe'] as const;

/** `parent`: where the bin dir goes (not a TMPDIR whose emptiness a test checks). */
export function installFakeTools(config: FakeToolConfig, parent: string = os.tmpdir()): FakeTools {
  const binDir = fs.mkdtempSync(path.join(parent, 'codexbar-fake-tools-'));
  const stored = { ...config, dpapiUserKey: config.dpapiUserKey ?? FAKE_DPAPI_USER_KEY.toString('hex') };
  fs.writeFileSync(path.join(binDir, 'fake-tools.json'), JSON.stringify(stored));
  for (const tool of TOOLS) {
    // An absolute interpreter path, so the fakes run with a PATH that holds nothing else.
    fs.writeFileSync(path.join(binDir, tool), `#!${process.execPath}\n${SCRIPT}`, { mode: 0o755 });
  }
  return {
    binDir,
    path: binDir,
    calls() {
      const log = path.join(binDir, 'calls.jsonl');
      if (!fs.existsSync(log)) return [];
      return fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as FakeToolCall);
    },
    cleanup: () => fs.rmSync(binDir, { recursive: true, force: true }),
  };
}
