/**
 * A Node binary of a given major from the npm registry's `node` package, for `test:node` and `build:sea`:
 * installed into `<work>/node-<major>/` once and reused. Its platform package carries the binary and its C
 * headers (`include/node`), so nothing else is fetched.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** `node@<major>` in its own prefix; returns the directory of its platform package (bin/ and include/). */
export function installNode(work: string, major: string, log: (message: string) => void): string {
  const prefix = path.join(work, `node-${major}`);
  const found = findNodeDist(prefix);
  if (found) return found;
  log(`installing node@${major} from the npm registry into ${prefix}`);
  fs.mkdirSync(prefix, { recursive: true });
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `node@${major}`],
    {
      stdio: 'inherit',
    },
  );
  const installed = findNodeDist(prefix);
  if (installed === undefined) throw new Error(`node@${major} installed no binary under ${prefix}`);
  return installed;
}

export function nodeBinary(nodeDist: string): string {
  return path.join(nodeDist, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
}

function findNodeDist(prefix: string): string | undefined {
  const packages = path.join(prefix, 'node_modules', 'node', 'node_modules');
  if (!fs.existsSync(packages)) return undefined;
  for (const name of fs.readdirSync(packages).filter((entry) => entry.startsWith('node-'))) {
    const dist = path.join(packages, name);
    if (
      fs.existsSync(nodeBinary(dist)) &&
      fs.existsSync(path.join(dist, 'include', 'node', 'node_version.h'))
    )
      return dist;
  }
  return undefined;
}
