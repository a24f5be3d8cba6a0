import type { LocalEnvironment } from '../../../local/environment.js';
import { type Outcome, ok, skip } from './outcome.js';
import type { runCommand } from './run-command.js';

/** PowerShell can take several seconds to start on a cold machine. */
const DPAPI_TIMEOUT_MS = 30_000;

// Reads the protected blob as base64 from stdin and writes the plaintext as base64 to stdout. The script, the
// one argument, holds no data: the blob goes on stdin (docs/invariants.md, "Never a credential shown").
const UNPROTECT_SCRIPT = [
  'Add-Type -AssemblyName System.Security',
  '$blob = [Convert]::FromBase64String([Console]::In.ReadToEnd().Trim())',
  '$plain = [System.Security.Cryptography.ProtectedData]::Unprotect($blob, $null, [System.Security.Cryptography.DataProtectionScope]::CurrentUser)',
  '[Console]::Out.Write([Convert]::ToBase64String($plain))',
].join('; ');

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Windows DPAPI, for the current user, through PowerShell's `ProtectedData.Unprotect`. */
export async function dpapiUnprotect(
  blob: Buffer,
  env: LocalEnvironment,
  run: typeof runCommand,
): Promise<Outcome<Buffer>> {
  const result = await run(
    'powershell.exe',
    ['-NoProfile', '-NonInteractive', '-Command', UNPROTECT_SCRIPT],
    {
      env: env.env,
      input: blob.toString('base64'),
      timeoutMs: DPAPI_TIMEOUT_MS,
    },
  );
  switch (result.kind) {
    case 'ok': {
      const text = result.stdout.toString('latin1').trim();
      if (text === '' || !BASE64.test(text))
        return skip('key-unavailable', 'PowerShell gave no DPAPI result');
      return ok(Buffer.from(text, 'base64'));
    }
    case 'missing':
      return skip('key-unavailable', 'PowerShell (powershell.exe) is not available to unwrap the DPAPI key');
    case 'timeout':
      return skip(
        'key-unavailable',
        `PowerShell did not unwrap the DPAPI key within ${DPAPI_TIMEOUT_MS / 1000} s`,
      );
    case 'failed':
      return skip(
        'key-unavailable',
        `Windows would not unwrap the DPAPI key (PowerShell exited with ${result.code ?? 'a signal'}); was it made by another Windows user?`,
      );
  }
}
