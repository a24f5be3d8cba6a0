import fs from 'node:fs';

/**
 * A preload (`node --import <PEAK_RSS_PRELOAD>`) that writes the process's own peak resident set size, in
 * KiB, to the file named by $PEAK_RSS_FILE when the process exits.
 *
 * On Linux it reads VmHWM from /proc/self/status. `process.resourceUsage().maxRSS` is not the child's own
 * figure there: the kernel carries the RSS of the process that spawned it (the test worker or the
 * benchmark, copied by fork) across exec into the child's maxRSS. In CI a usage run that peaks at 65 MB
 * read as 158 MB that way. VmHWM belongs to the address space exec made. Where /proc is missing
 * (macOS, Windows) the preload falls back to maxRSS, an upper bound.
 */
const SOURCE = [
  "import fs from 'node:fs';",
  'const peakKiB=()=>{',
  "try{const m=/^VmHWM:\\s*(\\d+)\\s*kB$/m.exec(fs.readFileSync('/proc/self/status','utf8'));if(m)return m[1];}catch{}",
  'return String(process.resourceUsage().maxRSS);};',
  "process.on('exit',()=>{const f=process.env.PEAK_RSS_FILE;if(f)fs.writeFileSync(f,peakKiB());});",
].join('');

export const PEAK_RSS_PRELOAD = `data:text/javascript,${encodeURIComponent(SOURCE)}`;

/** The figure the preload left in `file`, in MB; undefined when the process wrote none. */
export function readPeakRssMB(file: string): number | undefined {
  if (!fs.existsSync(file)) return undefined;
  const kib = Number(fs.readFileSync(file, 'utf8').trim());
  return Number.isFinite(kib) && kib > 0 ? kib / 1024 : undefined;
}
