import path from 'node:path';
import { z } from 'zod';
import { readJsonFile } from '../../../local/read-file.js';
import type { KeyProviders } from './key-providers.js';
import { type Outcome, skip } from './outcome.js';

/** The part of Chromium's `Local State` that holds the cookie key on Windows. Other keys are ignored. */
const localStateSchema = z.object({
  os_crypt: z.object({ encrypted_key: z.string().min(1) }),
});

const DPAPI_PREFIX = Buffer.from('DPAPI', 'latin1');
const AES_KEY_BYTES = 32;

/**
 * Windows: `os_crypt.encrypted_key` in `<User Data>/Local State` is base64 of `DPAPI` + a DPAPI blob that
 * unwraps to the AES-256 key of every `v10` cookie value.
 */
export async function readLocalStateKey(
  userDataDir: string,
  providers: Pick<KeyProviders, 'dpapiUnprotect'>,
  show: (filePath: string) => string,
): Promise<Outcome<Buffer>> {
  const file = path.join(userDataDir, 'Local State');
  const read = await readJsonFile(file, localStateSchema, 'a cookie key holder');
  if (read.kind === 'missing') {
    return skip('missing-local-state', `its cookie key would be in ${show(file)}, which is missing`);
  }
  if (read.kind === 'unreadable') return skip('unreadable', `cannot read ${show(file)} (${read.reason})`);
  if (read.kind === 'malformed') {
    return skip('missing-local-state', `${show(file)} holds no cookie key (os_crypt.encrypted_key)`);
  }
  const wrapped = Buffer.from(read.value.os_crypt.encrypted_key, 'base64');
  if (!wrapped.subarray(0, DPAPI_PREFIX.length).equals(DPAPI_PREFIX)) {
    return skip('undecryptable', `the cookie key in ${show(file)} is not DPAPI-protected`);
  }
  const key = await providers.dpapiUnprotect(wrapped.subarray(DPAPI_PREFIX.length));
  if (!key.ok) return key;
  if (key.value.length !== AES_KEY_BYTES) {
    return skip('undecryptable', `the cookie key in ${show(file)} did not unwrap to an AES-256 key`);
  }
  return key;
}
