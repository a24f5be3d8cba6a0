/**
 * Proxy tokens: what Cursor is given instead of the provider key (docs/proxy.md, "Keys"). A token is printed
 * once, by `proxy token create`; the file beside the ledger, `<data dir>/codexbar/proxy-tokens.json`
 * (owner-only, written atomically under a lock), keeps only its SHA-256. A presented token is hashed and
 * compared with `timingSafeEqual`, so the check takes the same time whatever it holds.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir, writePrivateFileAtomic } from '../cache/private-files.js';
import { withFileLock } from '../config/lock.js';
import { ConfigError } from '../errors.js';
import { readJsonFile } from '../local/read-file.js';

const TOKENS_FILE = 'proxy-tokens.json';
const TOKEN_PREFIX = 'cbxp_';
/** How often a running proxy looks at the file again, so a revoked token stops working. */
const RECHECK_MS = 1_000;

const entrySchema = z.object({
  id: z.string().regex(/^[0-9a-f]{8}$/),
  label: z.string().max(100),
  createdAt: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
const fileSchema = z.looseObject({ version: z.literal(1), tokens: z.array(entrySchema) });

export type ProxyTokenEntry = z.infer<typeof entrySchema>;

export function tokensPath(dataDir: string): string {
  return path.join(dataDir, TOKENS_FILE);
}

function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export async function readProxyTokens(file: string): Promise<ProxyTokenEntry[]> {
  const read = await readJsonFile(file, fileSchema, 'a codexbar proxy token file');
  if (read.kind === 'missing') return [];
  if (read.kind !== 'ok') {
    throw new ConfigError(
      `Cannot read the proxy tokens ${file}: ${read.reason}.`,
      'Move it away and create new tokens with `codexbar proxy token create`.',
    );
  }
  return read.value.tokens;
}

async function updateTokens(
  file: string,
  edit: (tokens: ProxyTokenEntry[]) => ProxyTokenEntry[],
): Promise<void> {
  ensurePrivateDir(path.dirname(file));
  await withFileLock(file, async () => {
    const tokens = edit(await readProxyTokens(file));
    writePrivateFileAtomic(file, `${JSON.stringify({ version: 1, tokens }, null, 2)}\n`);
  });
}

/** A new token: returned once for printing, its hash stored. */
export async function createProxyToken(
  file: string,
  label: string,
  now: Date,
): Promise<{ token: string; entry: ProxyTokenEntry }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const entry: ProxyTokenEntry = {
    id: randomBytes(4).toString('hex'),
    label,
    createdAt: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    sha256: digestOf(token).toString('hex'),
  };
  await updateTokens(file, (tokens) => [...tokens, entry]);
  return { token, entry };
}

/** Removes the token with this id; false when there is none. */
export async function revokeProxyToken(file: string, id: string): Promise<boolean> {
  let found = false;
  await updateTokens(file, (tokens) => {
    found = tokens.some((entry) => entry.id === id);
    return tokens.filter((entry) => entry.id !== id);
  });
  return found;
}

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

/** The credential of `Authorization: Bearer <credential>`, or undefined. */
export function bearerCredential(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

/**
 * The running proxy's view of the token file: loaded at start, looked at again at most once a second (a
 * changed size or mtime reloads it), so `proxy token revoke` takes effect without a restart. A file that
 * turns unreadable keeps the last good set and says so once.
 */
export class ProxyTokenCheck {
  private digests: Buffer[] = [];
  private checkedAt = 0;
  private signature = '';

  constructor(
    private readonly file: string,
    private readonly now: () => number,
    private readonly note: (line: string) => void,
  ) {}

  get count(): number {
    return this.digests.length;
  }

  async load(): Promise<void> {
    const signature = await this.fileSignature();
    const tokens = await readProxyTokens(this.file);
    this.digests = tokens.map((entry) => Buffer.from(entry.sha256, 'hex'));
    this.signature = signature;
    this.checkedAt = this.now();
  }

  async authorized(authorization: string | undefined): Promise<boolean> {
    const presented = bearerCredential(authorization);
    if (presented === undefined) return false;
    await this.recheck();
    const digest = digestOf(presented);
    let match = false;
    // Every stored digest is compared, so the time does not tell which one matched.
    for (const stored of this.digests) match = timingSafeEqual(stored, digest) || match;
    return match;
  }

  private async recheck(): Promise<void> {
    if (this.now() - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = this.now();
    try {
      if ((await this.fileSignature()) !== this.signature) await this.load();
    } catch {
      this.note('[proxy] the proxy token file cannot be read; the tokens loaded before stay in use');
    }
  }

  private async fileSignature(): Promise<string> {
    try {
      const info = await stat(this.file);
      return `${info.size}:${info.mtimeMs}:${info.ino}`;
    } catch {
      return 'missing';
    }
  }
}
